import type { Agent } from '@contrateia/shared';
import { describe, expect, it } from 'vitest';
import { agentPagePath, agentsWithPages, noAccessRedirect } from './hired-agent-pages';

const agent = (name: string): Agent => ({
  id: `id-${name}`,
  name,
  displayName: name,
  description: '',
  isActive: true,
  createdAt: '2024-01-01T00:00:00.000Z',
  configuration: { welcomeMessage: '' },
  isHired: true,
});

describe('agent pages', () => {
  it('knows which agents have a page', () => {
    expect(agentPagePath('auxtrat')).toBe('/auxtrat');
    expect(agentPagePath('made-up')).toBeNull();
  });

  it('lists hired agents with pages in navigation order', () => {
    const hired = [agent('indirect'), agent('made-up'), agent('guia'), agent('auxtrat')];
    expect(agentsWithPages(hired).map((a) => a.name)).toEqual(['guia', 'auxtrat', 'indirect']);
  });

  it('sends those without access to /guia, and never loops when guia is the one missing', () => {
    expect(noAccessRedirect('auxtrat', [agent('guia')])).toBe('/guia');
    expect(noAccessRedirect('guia', [agent('assistente')])).toBe('/assistente');
    expect(noAccessRedirect('guia', [agent('made-up')])).toBe('/dashboard');
    expect(noAccessRedirect('guia', [])).toBe('/dashboard');
  });
});
