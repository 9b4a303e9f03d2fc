import type { AdminAgent, AdminUser, AuditEntry } from '@contrateia/shared/admin/admin.schemas';
import type { Language } from '@contrateia/shared/i18n/languages';

// Payloads of the admin panel's calls as the server sends them (packages/shared admin.schemas.ts),
// for the fake server's answers.

type Texts = Record<Language, string>;

const same = (text: string): Texts => ({ 'pt-BR': text, 'en-US': text, 'es-ES': text });

/** A uuid made from a number, so tests can name ids. */
export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** An agent as GET /api/admin/agents lists it; seeded agents as the seed files have them. */
export function adminAgentFixture(overrides: Partial<AdminAgent> & { name: string }): AdminAgent {
  return {
    id: uuid(100),
    displayName: same(overrides.name),
    description: same(`About ${overrides.name}`),
    isActive: true,
    adminOnly: false,
    seeded: false,
    configuration: {
      instructions: '',
      welcomeMessage: same(''),
      model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
      knowledge: [],
      capabilities: { skills: [], fallback: 'notFound' },
    },
    createdAt: '2025-01-06T12:00:00.000Z',
    editedAt: null,
    hires: 0,
    conversations: 0,
    ...overrides,
  };
}

/** guia, seeded, with two knowledge entries (it has 81). */
export function guiaFixture(overrides: Partial<AdminAgent> = {}): AdminAgent {
  return adminAgentFixture({
    id: uuid(1),
    name: 'guia',
    seeded: true,
    displayName: { 'pt-BR': 'Guia', 'en-US': 'Guide', 'es-ES': 'Guía' },
    description: {
      'pt-BR': 'Mostra o caminho na ContrateIA.',
      'en-US': 'Shows you around ContrateIA.',
      'es-ES': 'Te orienta en ContrateIA.',
    },
    configuration: {
      instructions: 'Guide users around the app.',
      welcomeMessage: {
        'pt-BR': 'Olá! Eu sou o Guia.',
        'en-US': "Hello! I'm the Guide.",
        'es-ES': '¡Hola! Soy la Guía.',
      },
      model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
      knowledge: [
        {
          id: 'guia.language.en-US',
          language: 'en-US',
          title: 'Change the language',
          content: 'Use the **Language** selector at the top of any page.',
          keywords: ['language', 'idiom'],
        },
        {
          id: 'guia.dashboard.en-US',
          language: 'en-US',
          title: 'The dashboard',
          content: 'Your hired agents and your figures.',
          keywords: ['dashboard'],
          link: '/dashboard',
        },
      ],
      capabilities: { skills: [], fallback: 'notFound' },
    },
    hires: 12,
    conversations: 34,
    ...overrides,
  });
}

/** auxtrat, seeded, with its catalogue (the form must keep it as it is). */
export function auxtratFixture(overrides: Partial<AdminAgent> = {}): AdminAgent {
  const base = adminAgentFixture({ name: 'auxtrat' });
  return adminAgentFixture({
    id: uuid(3),
    name: 'auxtrat',
    seeded: true,
    displayName: same('Auxtrat'),
    configuration: {
      ...base.configuration,
      capabilities: { skills: ['catalogue'], fallback: 'notFound' },
      catalogue: {
        currency: 'BRL',
        items: [
          {
            id: 'basic-plan',
            name: { 'pt-BR': 'Plano Básico', 'en-US': 'Basic Plan', 'es-ES': 'Plan Básico' },
            description: same('One agent.'),
            keywords: { 'pt-BR': ['básico'], 'en-US': ['basic'], 'es-ES': ['básico'] },
            price: 49.9,
            unit: 'month',
          },
        ],
      },
    },
    hires: 3,
    conversations: 5,
    ...overrides,
  });
}

/** An account as GET /api/admin/users lists it. */
export function adminUserFixture(overrides: Partial<AdminUser> & { name: string }): AdminUser {
  const local = overrides.name.toLowerCase().replaceAll(/[^a-z0-9]+/g, '.');
  return {
    id: uuid(500),
    email: `${local}@exemplo.com`,
    username: local.replaceAll('.', ''),
    role: 'user',
    originalRole: 'user',
    singleAgent: null,
    createdAt: '2025-03-10T14:30:00.000Z',
    lastSeenAt: '2025-06-01T09:15:00.000Z',
    isActive: true,
    ...overrides,
  };
}

/** One admin change as GET /api/admin/audit lists it. */
export function auditEntryFixture(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: uuid(900),
    at: '2025-06-02T10:00:00.000Z',
    actor: { id: uuid(501), name: 'Ana Admin', email: 'ana@exemplo.com' },
    action: 'settings.theme',
    target: 'theme',
    targetName: null,
    changes: { primaryColor: { before: '#667eea', after: '#112233' } },
    ip: '203.0.113.7',
    ...overrides,
  };
}
