import { z } from 'zod';

/**
 * Half of a surrogate pair without its other half. JSON may carry one (`"\ud83d"`, the first half
 * of an emoji) and JavaScript strings may hold one, but no character encoding can write it: PostgreSQL
 * refuses it in jsonb (22P02) and turns it into U+FFFD in text, so a text holding one would either
 * fail to be stored or be stored as another text. With the `u` flag a regular expression reads a
 * whole pair as one code point (never of category Cs), so only a lone half matches.
 * (`String.prototype.isWellFormed` says the same, but not in every browser the web app supports.)
 */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/** Whether `text` is well-formed UTF-16: every surrogate is half of a pair. */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** `text` with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder writes it: for texts that must be taken whatever they hold (what WhatsApp delivers). */
export function toWellFormedText(text: string): string {
  return text.replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * The first `max` UTF-16 units of `text`, one fewer when the last would be the first half of a
 * pair: a text cut to a length (a reply at its agent's maximum, a turn an engine reads) stays
 * well-formed, so it can still be stored and sent.
 */
export function sliceWhole(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * Every text a client sends starts here: a string that is well-formed UTF-16, else refused on its
 * own field with `validation.textInvalid`, before any other rule of the field is checked. The
 * field's own rules follow (`textInput(...).trim().max(…)`). `params` are z.string()'s (the message
 * of a missing or non-string value).
 */
export function textInput(params?: Parameters<typeof z.string>[0]) {
  return z
    .string(params)
    .refine(isWellFormedText, { message: 'validation.textInvalid', abort: true });
}
