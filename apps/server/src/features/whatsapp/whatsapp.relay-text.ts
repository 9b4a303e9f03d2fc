import {
  findPhoneNumbersInText,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';
import type { Language } from '@contrateia/shared';

// How indirect reads what people write: a send request and its number, a yes or a no, STOP; and
// the language a recipient is written to in.

/** A number as the relays know it: its E.164 digits, as it is shown, and its country if known. */
export type Recipient = { digits: string; shown: string; country: CountryCode | undefined };

export function recipientOf(digits: string): Recipient {
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  return {
    digits,
    shown: parsed?.formatInternational() ?? `+${digits}`,
    country: parsed?.country,
  };
}

/** A verb that asks to send, in any of its forms ("envie", "envía", "manda", "send", "escribe"…). */
const SEND_VERB =
  /(?<!\p{L})(env[ií]\p{L}*|mand\p{L}*|send\p{L}*|text|message|escrev\p{L}*|escrib\p{L}*|diga|diz|fala|avis\p{L}*|tell)(?!\p{L})/iu;
const LEAD = /^\s*((para|pra|to|al?)\s*)?[:\-–—]?\s*$/i;
/** The sender's yes, and no, to a relay shown. */
export const YES =
  /^(sim|s|yes|y|s[ií]|ok|okay|pode (enviar|mandar)|envi[ae]r?|manda|send( it)?|confirm[oa]r?)[\s.!]*$/i;
export const NO = /^(n[aã]o|n|no|cancel(a|ar)?)[\s.!]*$/i;
/** What the page's Send and Cancel write, in each language (agentChat.relay.yes / .no). */
export const BUTTON_WORD = /^(sim|yes|s[ií]|n[aã]o|no)[\s.!]*$/i;

/**
 * A request to send a text to a number, as a person writes it: "envie para (11) 98888-7777: oi",
 * "+55 11 98888 7777: oi", "send to +1 212 555 0100 hi"; `noNumber` when it asks to send with
 * digits that make no number; undefined for anything else (a question about indirect).
 */
export function sendRequestOf(
  message: string,
): { recipient: Recipient; text: string } | 'noNumber' | undefined {
  const [found] = findPhoneNumbersInText(message, 'BR');
  if (!found) {
    const digits = message.replace(/[\s().-]/g, '');
    return SEND_VERB.test(message) && /\d{6,}/.test(digits) ? 'noNumber' : undefined;
  }
  const before = message.slice(0, found.startsAt);
  if (!LEAD.test(before) && !SEND_VERB.test(before)) return undefined;
  let text = message
    .slice(found.endsAt)
    .replace(/^[\s:,;\-–—]+/, '')
    .replace(/^(dizendo|falando|saying|diciendo)( que| that)?[\s:]+/i, '')
    .trim();
  const quoted = /^["“«'](.*)["”»']$/s.exec(text);
  if (quoted) text = quoted[1]!.trim();
  if (!text) text = /["“«](.+?)["”»]/s.exec(before)?.[1]?.trim() ?? '';
  return { recipient: recipientOf(found.number.number.slice(1)), text };
}

/** Countries whose people are written to in Spanish, and in English; Portuguese for any other. */
const SPANISH = new Set(
  'ES MX AR CO CL PE VE EC GT CU BO DO HN PY SV NI CR PA UY GQ PR'.split(' '),
);
const ENGLISH = new Set('US CA GB IE AU NZ ZA IN NG JM SG PH KE GH'.split(' '));

/** The language a recipient is written to in: their country's, when it is one of ours; else Portuguese. */
export function recipientLanguage(country: CountryCode | undefined): Language {
  if (country && SPANISH.has(country)) return 'es-ES';
  if (country && ENGLISH.has(country)) return 'en-US';
  return 'pt-BR';
}

/** Markdown's quote of `text`, every line of it. */
export function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** Whether a recipient's message asks never to be relayed to again: STOP, PARE, SAIR or ALTO, any case and punctuation. */
export function isStop(text: string): boolean {
  const word = text
    .normalize('NFD')
    .replace(/[^\p{L}]/gu, '')
    .toUpperCase();
  return ['STOP', 'PARE', 'SAIR', 'ALTO'].includes(word);
}

/** The last four digits only: enough for an admin to tell numbers apart in the logs. */
export function masked(to: Recipient): string {
  return `…${to.digits.slice(-4)}`;
}
