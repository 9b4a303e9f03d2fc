import { describe, expect, it } from 'vitest';
import * as names from './agent-names';
import { agentConfigurationSchema, agentSeedSchema, SEEDED_AGENT_NAMES } from './agents.schemas';

const texts = { 'pt-BR': 'Olá', 'en-US': 'Hello', 'es-ES': 'Hola' };
const stored = {
  instructions: 'You are a test agent.',
  welcomeMessage: texts,
  model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
  knowledge: [],
};
const item = {
  id: 'consulting',
  name: texts,
  description: texts,
  keywords: { 'pt-BR': ['consultoria'], 'en-US': ['consulting'], 'es-ES': ['consultoría'] },
  price: 1800,
  unit: 'month',
};
const seed = {
  seedVersion: 1,
  displayName: texts,
  description: texts,
  adminOnly: false,
  configuration: {
    ...stored,
    capabilities: { skills: ['catalogue'], fallback: 'notFound' },
    catalogue: { currency: 'BRL', items: [item] },
  },
};

describe('agent configuration', () => {
  it('gives a configuration without capabilities none: knowledge only', () => {
    expect(agentConfigurationSchema.parse(stored).capabilities).toEqual({
      skills: [],
      fallback: 'notFound',
    });
  });

  it('refuses an unknown skill, a repeated one and an unknown fallback', () => {
    const withCapabilities = (capabilities: unknown) =>
      agentConfigurationSchema.safeParse({ ...stored, capabilities }).success;
    expect(withCapabilities({ skills: ['liveFacts', 'dateTime'], fallback: 'cannotYet' })).toBe(
      true,
    );
    expect(withCapabilities({ skills: ['telepathy'], fallback: 'notFound' })).toBe(false);
    expect(withCapabilities({ skills: ['dateTime', 'dateTime'], fallback: 'notFound' })).toBe(
      false,
    );
    expect(withCapabilities({ skills: [], fallback: 'shrug' })).toBe(false);
  });
});

describe('seed file', () => {
  it('accepts a complete file', () => {
    expect(agentSeedSchema.safeParse(seed).error).toBeUndefined();
  });

  it.each<[string, (s: typeof seed) => unknown]>([
    [
      'a price written as text',
      (s) => ({
        ...s,
        configuration: {
          ...s.configuration,
          catalogue: { currency: 'BRL', items: [{ ...item, price: 'R$ 1.800,00' }] },
        },
      }),
    ],
    [
      'a negative price',
      (s) => ({
        ...s,
        configuration: {
          ...s.configuration,
          catalogue: { currency: 'BRL', items: [{ ...item, price: -1 }] },
        },
      }),
    ],
    [
      'an unknown price unit',
      (s) => ({
        ...s,
        configuration: {
          ...s.configuration,
          catalogue: { currency: 'BRL', items: [{ ...item, unit: 'year' }] },
        },
      }),
    ],
    [
      'a currency that is not an ISO code',
      (s) => ({
        ...s,
        configuration: { ...s.configuration, catalogue: { currency: 'R$', items: [item] } },
      }),
    ],
    [
      'an item name missing a language',
      (s) => ({
        ...s,
        configuration: {
          ...s.configuration,
          catalogue: {
            currency: 'BRL',
            items: [{ ...item, name: { 'pt-BR': 'x', 'en-US': 'x' } }],
          },
        },
      }),
    ],
    ['a display name missing a language', (s) => ({ ...s, displayName: { 'pt-BR': 'Guia' } })],
    ['no seed version', ({ seedVersion: _, ...rest }) => rest],
    ['a seed version of 0', (s) => ({ ...s, seedVersion: 0 })],
    ['capabilities left to the default', (s) => ({ ...s, configuration: { ...stored } })],
    ['an unknown (misspelt) key', (s) => ({ ...s, adminonly: true })],
  ])('refuses %s', (_, broken) => {
    expect(agentSeedSchema.safeParse(broken(seed)).success).toBe(false);
  });
});

describe('the seeded agent names', () => {
  it('come from a module of their own, the same the schemas re-export', () => {
    expect(SEEDED_AGENT_NAMES).toBe(names.SEEDED_AGENT_NAMES);
    expect(names.SEEDED_AGENT_NAMES).toContain(names.DEFAULT_AGENT_NAME);
  });
});
