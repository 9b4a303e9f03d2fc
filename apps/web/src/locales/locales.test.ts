import { LANGUAGES, sharedMessages, type Language } from '@contrateia/shared';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import adminEnUS from './admin/en-US.json';
import adminEsES from './admin/es-ES.json';
import adminPtBR from './admin/pt-BR.json';
import accountEnUS from './account/en-US.json';
import accountEsES from './account/es-ES.json';
import accountPtBR from './account/pt-BR.json';
import appEnUS from './app/en-US.json';
import registerEnUS from './register/en-US.json';
import registerEsES from './register/es-ES.json';
import registerPtBR from './register/pt-BR.json';
import appEsES from './app/es-ES.json';
import appPtBR from './app/pt-BR.json';
import enUS from './en-US.json';
import monitorEnUS from './monitor/en-US.json';
import monitorEsES from './monitor/es-ES.json';
import monitorPtBR from './monitor/pt-BR.json';
import logsEnUS from './logs/en-US.json';
import logsEsES from './logs/es-ES.json';
import logsPtBR from './logs/pt-BR.json';
import myAgentsEnUS from './my-agents/en-US.json';
import myAgentsEsES from './my-agents/es-ES.json';
import myAgentsPtBR from './my-agents/pt-BR.json';
import esES from './es-ES.json';
import imagesEnUS from './images/en-US.json';
import imagesEsES from './images/es-ES.json';
import imagesPtBR from './images/pt-BR.json';
import ptBR from './pt-BR.json';
import whatsappEnUS from './whatsapp/en-US.json';
import whatsappEsES from './whatsapp/es-ES.json';
import whatsappPtBR from './whatsapp/pt-BR.json';

/**
 * Every language must have every key, the same {{placeholders}} per key and no empty text, so no
 * screen ever shows a raw key or a half-filled sentence. pt-BR is the source language.
 */

type Catalogue = Record<Language, unknown>;

const web: Catalogue = { 'pt-BR': ptBR, 'en-US': enUS, 'es-ES': esES };
const shared: Catalogue = sharedMessages;

function flatten(value: unknown, prefix = ''): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, leaf] of flatten(child, prefix ? `${prefix}.${key}` : key)) {
        entries.set(path, leaf);
      }
    }
  } else {
    entries.set(prefix, value);
  }
  return entries;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/{{\s*([^}\s,]+)[^}]*}}/g)].map((m) => m[1] ?? '').sort();
}

/**
 * `sample` is one key each catalogue is known to hold, with its placeholders: the checks below
 * compare lists, and would pass on catalogues read as empty or with placeholders never found.
 */
function checkCatalogue(
  name: string,
  catalogue: Catalogue,
  sample: { key: string; placeholders: string[] },
) {
  describe(`${name} locales`, () => {
    const flat = Object.fromEntries(
      LANGUAGES.map((language) => [language, flatten(catalogue[language])]),
    ) as Record<Language, Map<string, unknown>>;
    const source = flat['pt-BR'];
    const others = LANGUAGES.filter((language) => language !== 'pt-BR');

    it.each(LANGUAGES)(`%s holds ${sample.key}, with its placeholders`, (language) => {
      expect(placeholders(String(flat[language].get(sample.key)))).toEqual(sample.placeholders);
    });

    it.each(others)('%s has exactly the keys of pt-BR', (language) => {
      const keys = [...flat[language].keys()];
      const missing = [...source.keys()].filter((key) => !flat[language].has(key));
      const extra = keys.filter((key) => !source.has(key));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it.each(LANGUAGES)('%s has a non-empty string for every key', (language) => {
      const bad = [...flat[language]]
        .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
        .map(([key]) => key);
      expect(bad).toEqual([]);
    });

    it.each(others)('%s uses the same {{placeholders}} as pt-BR', (language) => {
      const differing = [...source]
        .filter(([key, text]) => {
          const other = flat[language].get(key);
          return (
            typeof text === 'string' &&
            typeof other === 'string' &&
            placeholders(text).join() !== placeholders(other).join()
          );
        })
        .map(([key]) => key);
      expect(differing).toEqual([]);
    });
  });
}

checkCatalogue('web', web, { key: 'app.pageTitle', placeholders: ['app', 'page'] });
checkCatalogue(
  'web registration page',
  { 'pt-BR': registerPtBR, 'en-US': registerEnUS, 'es-ES': registerEsES },
  { key: 'register.resendIn', placeholders: ['seconds'] },
);
checkCatalogue('shared', shared, { key: 'auth.otpSent', placeholders: ['email'] });
checkCatalogue(
  'web account pages',
  { 'pt-BR': accountPtBR, 'en-US': accountEnUS, 'es-ES': accountEsES },
  { key: 'forgotPassword.resetIntro', placeholders: ['email'] },
);
checkCatalogue(
  'web signed-in pages',
  { 'pt-BR': appPtBR, 'en-US': appEnUS, 'es-ES': appEsES },
  { key: 'dashboard.welcome', placeholders: ['name'] },
);
checkCatalogue(
  'web WhatsApp pages',
  { 'pt-BR': whatsappPtBR, 'en-US': whatsappEnUS, 'es-ES': whatsappEsES },
  { key: 'whatsapp.chat.messageLabel', placeholders: ['name'] },
);
checkCatalogue(
  'web admin panel',
  { 'pt-BR': adminPtBR, 'en-US': adminEnUS, 'es-ES': adminEsES },
  { key: 'users.confirm.deactivateQuestion', placeholders: ['email', 'name'] },
);
checkCatalogue(
  'web system monitor',
  { 'pt-BR': monitorPtBR, 'en-US': monitorEnUS, 'es-ES': monitorEsES },
  { key: 'systemMonitor.services.whatsapp', placeholders: ['connected', 'linked'] },
);
checkCatalogue(
  'web image library',
  { 'pt-BR': imagesPtBR, 'en-US': imagesEnUS, 'es-ES': imagesEsES },
  { key: 'images.upload.tooLarge', placeholders: ['max', 'name', 'size'] },
);
checkCatalogue(
  'web logs page',
  { 'pt-BR': logsPtBR, 'en-US': logsEnUS, 'es-ES': logsEsES },
  { key: 'logs.details.label', placeholders: ['time'] },
);
checkCatalogue(
  'web own agents pages',
  { 'pt-BR': myAgentsPtBR, 'en-US': myAgentsEnUS, 'es-ES': myAgentsEsES },
  { key: 'ownAgents.hours.period', placeholders: ['day', 'number'] },
);

describe('web and shared catalogues', () => {
  // All are merged at the top level (lib/i18n.ts): a section in two of them would be overwritten.
  it('do not share a top-level section', () => {
    const catalogues = {
      shared: sharedMessages['pt-BR'],
      web: ptBR,
      'web registration page': registerPtBR,
      'web account pages': accountPtBR,
      'web signed-in pages': appPtBR,
      'web WhatsApp pages': whatsappPtBR,
      'web admin panel': adminPtBR,
      'web system monitor': monitorPtBR,
      'web image library': imagesPtBR,
      'web logs page': logsPtBR,
      'web own agents pages': myAgentsPtBR,
    };
    const owners = new Map<string, string[]>();
    for (const [name, catalogue] of Object.entries(catalogues)) {
      for (const section of Object.keys(catalogue)) {
        owners.set(section, [...(owners.get(section) ?? []), name]);
      }
    }
    expect(owners.size).toBeGreaterThan(10);
    expect([...owners].filter(([, names]) => names.length > 1)).toEqual([]);
  });
});

describe('counts of zero', () => {
  // Portuguese counts 0 as singular (CLDR "one"): without a _zero form, "0 mensagem".
  it('read as plurals in pt-BR, not as "0 mensagem"', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'pt-BR',
      resources: { 'pt-BR': { translation: { ...appPtBR, ...whatsappPtBR } } },
    });
    expect(i18n.t('auxtrat.messageCount', { count: 0 })).toBe('0 mensagens');
    expect(i18n.t('auxtrat.messageCount', { count: 1 })).toBe('1 mensagem');
    expect(i18n.t('whatsapp.list.count', { count: 0 })).toBe('0 conversas');
  });

  it('read as plurals on the own agents pages too', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'pt-BR', resources: { 'pt-BR': { translation: myAgentsPtBR } } });
    expect(i18n.t('ownAgents.list.items', { count: 0 })).toBe('nenhum item');
    expect(i18n.t('ownAgents.list.items', { count: 1 })).toBe('1 item');
    expect(i18n.t('ownAgents.list.questions', { count: 15 })).toBe('15 perguntas');
  });

  it('read as plurals in the monitor too', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'pt-BR', resources: { 'pt-BR': { translation: monitorPtBR } } });
    expect(i18n.t('systemMonitor.actions.cleanup.sessions', { count: 0 })).toBe('0 sessões');
    expect(i18n.t('systemMonitor.actions.cleanup.codes', { count: 1 })).toBe('1 código');
    expect(i18n.t('systemMonitor.services.sockets', { count: 0 })).toBe('0 conexões abertas');
  });
});
