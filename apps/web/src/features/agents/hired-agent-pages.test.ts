import type { Agent } from '@contrateia/shared';
import { describe, expect, it } from 'vitest';
import { agentPagePath, agentsWithPages } from './hired-agent-pages';

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
  it("gives a seeded agent its own page, and an admin's agent the generic one", () => {
    expect(agentPagePath('auxtrat')).toBe('/auxtrat');
    expect(agentPagePath('guia')).toBe('/guia');
    expect(agentPagePath('made-up')).toBe('/agent/made-up');
  });

  it("lists hired agents in navigation order: the seeded ones, then the admin's in the server's order", () => {
    const hired = [
      agent('indirect'),
      agent('made-up'),
      agent('guia'),
      agent('auxtrat'),
      agent('another'),
    ];
    expect(agentsWithPages(hired).map((a) => a.name)).toEqual([
      'guia',
      'auxtrat',
      'indirect',
      'made-up',
      'another',
    ]);
  });
});
