import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  agentSeedSchema,
  LANGUAGES,
  SEEDED_AGENT_NAMES,
  WEB_PAGES,
  type AgentSeed,
} from '@contrateia/shared';
import { MAX_IMAGES_PER_TURN } from '@/features/ai/ai.service';
import { loadConfig } from '@/config';
import { loadSeededAgents } from './agents.seed';

// The seed files as they are on disk, read here without the loader, so that a stray file or one
// the loader forgot is noticed too.
const folder = new URL('./seed/', import.meta.url);
const files = fs.readdirSync(folder).sort();
const raw = (file: string): unknown => JSON.parse(fs.readFileSync(new URL(file, folder), 'utf8'));

describe('the seed files', () => {
  it('are one per seeded agent, and the loader reads them all in navigation order', () => {
    expect(files).toEqual(SEEDED_AGENT_NAMES.map((name) => `${name}.json`).sort());
    expect(loadSeededAgents().map((agent) => agent.name)).toEqual([...SEEDED_AGENT_NAMES]);
  });

  it('guia guides to every page of the web app, in every language', () => {
    // guia's knowledge is part of each page's work: a new page in WEB_PAGES needs its entry.
    const seed = agentSeedSchema.parse(raw('guia.json'));
    for (const language of LANGUAGES) {
      const known = seed.configuration.knowledge
        .filter((entry) => entry.language === language)
        .flatMap((entry) => [
          ...(entry.link ? [entry.link] : []),
          ...(entry.content.match(/\/[a-z][a-z0-9-]*/g) ?? []),
        ]);
      expect(
        WEB_PAGES.filter((page) => !known.includes(page)),
        language,
      ).toEqual([]);
    }
  });

  it("guia's figures on WhatsApp files are the server's own", () => {
    const seed = agentSeedSchema.parse(raw('guia.json'));
    const content = (language: string) =>
      seed.configuration.knowledge.find((entry) => entry.id === `guia.whatsappMedia.${language}`)!
        .content;
    // The defaults: what a server started with no WHATSAPP_MEDIA_* variable has.
    const { maxBytes, retentionDays } = loadConfig({}).whatsappMedia;
    const mb = maxBytes / (1024 * 1024);
    expect(content('pt-BR')).toContain(`(${mb} MB por padrão)`);
    expect(content('pt-BR')).toContain(`por ${retentionDays} dias por padrão`);
    expect(content('pt-BR')).toContain(`mais de ${MAX_IMAGES_PER_TURN} fotos de uma vez`);
    expect(content('en-US')).toContain(`(${mb} MB by default)`);
    expect(content('en-US')).toContain(`for ${retentionDays} days by default`);
    expect(content('en-US')).toContain(`more than ${MAX_IMAGES_PER_TURN} photos at once`);
    expect(content('es-ES')).toContain(`(${mb} MB por defecto)`);
    expect(content('es-ES')).toContain(`${retentionDays} días por defecto`);
    expect(content('es-ES')).toContain(`más de ${MAX_IMAGES_PER_TURN} fotos a la vez`);
  });

  describe.each(files)('%s', (file) => {
    const data = raw(file);
    const parsed = agentSeedSchema.safeParse(data);
    const seed = parsed.data as AgentSeed;

    it('matches the seed schema, which neither drops nor fills in anything', () => {
      expect(parsed.error).toBeUndefined();
      // Equal to the file: no unknown (misspelt) key was stripped and no default was added.
      expect(parsed.data).toEqual(data);
    });

    it('has every knowledge entry in all three languages, once, under one id', () => {
      const ids = seed.configuration.knowledge.map((entry) => entry.id);
      expect(new Set(ids).size).toBe(ids.length);
      const topics = new Map<string, string[]>();
      for (const entry of seed.configuration.knowledge) {
        // Ids are `<agent>.<topic>.<language>`.
        expect(entry.id.endsWith(`.${entry.language}`)).toBe(true);
        const topic = entry.id.slice(0, -entry.language.length - 1);
        expect(topic.startsWith(`${file.replace('.json', '')}.`)).toBe(true);
        topics.set(topic, [...(topics.get(topic) ?? []), entry.language]);
        expect(entry.title.trim()).not.toBe('');
        expect(entry.content.trim()).not.toBe('');
        expect(entry.keywords.length).toBeGreaterThan(0);
        if (entry.link !== undefined) expect(entry.link).toMatch(/^\/[a-z0-9-]*$/);
      }
      for (const [topic, languages] of topics) {
        expect({ topic, languages: languages.sort() }).toEqual({
          topic,
          languages: [...LANGUAGES].sort(),
        });
      }
      // The same link in every language of a topic: a page does not move with the language.
      for (const topic of topics.keys()) {
        const links = seed.configuration.knowledge
          .filter((e) => e.id.startsWith(`${topic}.`))
          .map((e) => e.link);
        expect(new Set(links).size).toBe(1);
      }
    });

    it('links and names only pages that exist in the web app', () => {
      // A path written in a text: after a space, a bracket or Markdown emphasis ("**/auxtrat**").
      const pathsIn = (text: string) => text.match(/(?<=^|[\s(*[])\/[a-z][a-z0-9-]*/g) ?? [];
      const { knowledge, instructions } = seed.configuration;
      const stated = [
        ...pathsIn(instructions).map((path) => ({ where: 'instructions', path })),
        ...knowledge.flatMap((entry) => [
          ...(entry.link ? [{ where: entry.id, path: entry.link }] : []),
          ...pathsIn(entry.content).map((path) => ({ where: entry.id, path })),
        ]),
      ];
      const missing = stated.filter(({ path }) => !WEB_PAGES.includes(path));
      expect(missing).toEqual([]);
    });

    it('does not call WhatsApp unavailable now that its pages exist', () => {
      expect(WEB_PAGES).toContain('/whatsapp');
      const { knowledge, instructions } = seed.configuration;
      const texts = [instructions, ...knowledge.map((entry) => entry.content)];
      const unavailable =
        /whatsapp[^.]*(not available|ainda não está disponível|todavía no está disponible)/i;
      expect(texts.filter((text) => unavailable.test(text))).toEqual([]);
    });

    it('has every text in all three languages', () => {
      for (const language of LANGUAGES) {
        expect(seed.displayName[language].trim()).not.toBe('');
        expect(seed.description[language].trim()).not.toBe('');
        expect(seed.configuration.welcomeMessage[language].trim()).not.toBe('');
      }
      expect(seed.configuration.instructions.length).toBeGreaterThan(20);
    });

    it('has a catalogue exactly when it has the catalogue skill, with numeric prices and unique ids', () => {
      const { catalogue, capabilities } = seed.configuration;
      expect(catalogue !== undefined).toBe(capabilities.skills.includes('catalogue'));
      if (!catalogue) return;
      expect(catalogue.items.length).toBeGreaterThan(0);
      const ids = catalogue.items.map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const item of catalogue.items) {
        expect(typeof item.price).toBe('number');
        for (const language of LANGUAGES) {
          expect(item.name[language].trim()).not.toBe('');
          expect(item.description[language].trim()).not.toBe('');
          // The engine adds the price: a price typed into the text could disagree with it.
          expect(item.description[language]).not.toMatch(/\d[\d.,]*\s*(R\$|BRL)|R\$\s*\d/);
        }
      }
    });
  });
});
