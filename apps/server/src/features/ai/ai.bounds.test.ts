import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '@contrateia/shared';
import { createBuiltinEngine } from './ai.builtin';
import { KnowledgeIndex } from './ai.search';
import * as spelling from './ai.spelling';
import { GUIDE_KNOWLEDGE, configuration } from './ai.test-fixtures';

// A WhatsApp contact (no account needed) can send a single word of 64 K characters, and
// the builtin engine's fuzzy search allocated (n + d) × n bytes for it (a RangeError at 65,536, a
// gigabyte at 32,000). Whatever comes in, the engine reads at most the first 4,000 characters of
// a turn, and drops words over 40 characters before spelling and search. What reaches the
// spelling and the search is watched through the modules' own functions.

vi.mock('./ai.spelling', async (original) => {
  const actual = await original<typeof spelling>();
  return { ...actual, expandChatSpelling: vi.fn(actual.expandChatSpelling) };
});

const spelled = vi.mocked(spelling.expandChatSpelling);
const engine = createBuiltinEngine({ now: () => new Date('2026-03-03T17:05:00Z') });
const guide = configuration({ knowledge: GUIDE_KNOWLEDGE });

async function ask(message: string, language: Language = 'pt-BR'): Promise<string> {
  let text = '';
  for await (const piece of engine.reply({
    agent: { name: 'guide', configuration: guide },
    message,
    language,
  })) {
    text += piece;
  }
  return text;
}

/** What the engine read, as the spelling and the search were given it. */
function watch() {
  spelled.mockClear();
  const ranked = vi.spyOn(KnowledgeIndex.prototype, 'rank');
  const corrected = vi.spyOn(KnowledgeIndex.prototype, 'correctSwaps');
  return {
    spelled: () => spelled.mock.calls.map(([text]) => text),
    searched: () => ranked.mock.calls.flatMap(([terms, said = []]) => [...terms, ...said]),
    corrected: () => corrected.mock.calls.flatMap(([said]) => said),
  };
}

/** A word of `length` letters that repeats no neighbour, as a typed or random word would not. */
const longWord = (length: number, seed = 0) =>
  Array.from({ length }, (_, i) => String.fromCharCode(97 + ((i * 7 + seed) % 26))).join('');

afterEach(() => vi.restoreAllMocks());

describe('the builtin engine reads a bounded turn', () => {
  it('a single word of 64 K characters: at most the first 4,000 characters read, the word never spelled nor searched', async () => {
    const seen = watch();
    const text = await ask('a'.repeat(65_536));
    expect(text.length).toBeGreaterThan(0);
    expect(seen.spelled().length).toBeGreaterThan(0);
    for (const read of seen.spelled()) expect(read.length).toBeLessThanOrEqual(4_000);
    expect(seen.spelled().join('')).not.toMatch(/a{41}/);
    expect(seen.searched()).toEqual([]);
  });

  it('64 K of long words: at most the first 4,000 characters read, words over 40 characters dropped', async () => {
    const seen = watch();
    const words = Array.from({ length: 1_000 }, (_, i) => longWord(64, i));
    const text = await ask(`como conecto ${words.join(' ')}`);
    expect(text.length).toBeGreaterThan(0);
    for (const read of seen.spelled()) expect(read.length).toBeLessThanOrEqual(4_000);
    for (const word of [...seen.searched(), ...seen.corrected()])
      expect(word.length).toBeLessThanOrEqual(40);
    expect(seen.searched()).toContain('conect');
  });

  it('words of up to 40 characters are still read, and a question still gets its answer beside long words', async () => {
    const seen = watch();
    const forty = longWord(40);
    await ask(`onde fica ${forty}?`);
    expect(seen.corrected()).toContain(forty);

    const entry = GUIDE_KNOWLEDGE.find((e) => e.id === 'whatsapp.pt-BR')!;
    const answer = await ask(`como conecto meu whatsapp? ${longWord(41)} ${'z'.repeat(65_000)}`);
    expect(answer.startsWith(`**${entry.title}**\n\n${entry.content}`)).toBe(true);
  });

  it('reads only the first 4,000 characters: a question after them is not read', async () => {
    const seen = watch();
    const filler = 'oi '.repeat(1_400); // 4,200 characters of greeting
    await ask(`${filler}como conecto meu whatsapp?`);
    expect(seen.searched()).not.toContain('whatsapp');
    for (const read of seen.spelled()) expect(read.length).toBeLessThanOrEqual(4_000);
  });
});
