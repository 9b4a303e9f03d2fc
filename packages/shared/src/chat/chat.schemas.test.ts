import { describe, expect, it } from 'vitest';
import { sendMessageSchema, shortChatSchema } from './chat.schemas';

// Text that shows nothing: zero-width space, non-joiner and joiner, word joiner, byte-order mark,
// soft hyphen, direction marks and isolates (all format characters, Unicode category Cf), and the
// Hangul filler, which is no format character but as invisible.
const INVISIBLE = [
  '\u200B',
  '\u200C\u200D',
  '\u2060',
  '\uFEFF',
  ' \u200B \u200D\n\uFEFF\t',
  '\u00AD',
  '\u200E\u200F\u2066\u2069',
  '\u3164',
];

const schemas = [
  ['sendMessageSchema', sendMessageSchema],
  ['shortChatSchema', shortChatSchema],
] as const;

describe.each(schemas)('a chat message (%s)', (_name, schema) => {
  const issues = (message: string) =>
    schema
      .safeParse({ message, agentName: 'guia' })
      .error?.issues.map((i) => [i.path.join('.'), i.message]);

  it.each(INVISIBLE.map((text) => [JSON.stringify(text), text]))(
    'refuses %s as it refuses an empty one',
    (_shown, text) => {
      expect(issues('')).toEqual([['message', 'validation.messageRequired']]);
      expect(issues(text)).toEqual(issues(''));
    },
  );

  it.each([
    ['text beside invisible characters', '\u200Bolá\u200B'],
    ['an emoji joined by ZWJ', '👩\u200D💻'],
    ['a single visible character', '.'],
  ])('takes %s', (_case, text) => {
    expect(issues(text)).toBeUndefined();
  });
});
