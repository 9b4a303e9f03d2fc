import { LRUCache } from 'lru-cache';
import { detectAll } from 'tinyld';
import type { Language } from '@contrateia/shared';
import { ownSmallWords, withoutLongWords, words } from './ai.search';
import { ownChatWords } from './ai.spelling';

// The language a question is written in, so that an agent answers in it whatever the interface
// language is. tinyld (no dependencies, ~0.5 MB of n-gram tables, plain CommonJS that runs on
// Node 20+) restricted to our three languages; franc-min needs far longer texts to tell
// Portuguese from Spanish, and eld's full tables weigh several megabytes.

const CODES: Record<string, Language> = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' };
const ONLY = Object.keys(CODES);

// Below this many letters, or this many words, a guess is a coin toss ("oi", "ok", "2+2",
// "cerrar sesion", which tinyld calls Portuguese).
const MIN_LETTERS = 12;
const MIN_WORDS = 3;
// The winner must lead the runner-up by this factor; a near tie keeps the interface language.
const MIN_LEAD = 1.3;

// Answers already given, by fallback and text. A WhatsApp reply asks twice for the same text: the
// service, to choose the language of the reply whatever the engine, and then the builtin engine,
// which detects for every caller. tinyld allocates some 40 KB a call, the largest share of what a
// reply allocated under `npm run bench`'s WhatsApp load. Long texts are not kept: a key that
// size costs memory, and a repeat of one is rare.
const known = new LRUCache<string, Language>({ max: 1000 });
const KEPT_UP_TO_CHARS = 1000;

/**
 * The language of `text` among pt-BR, en-US and es-ES; `fallback` (the interface language) when
 * the text is too short or the detector is unsure, or when the fallback is nearly as likely.
 */
export function detectLanguage(text: string, fallback: Language): Language {
  if (text.length > KEPT_UP_TO_CHARS) return detect(text, fallback);
  const key = `${fallback}\n${text}`;
  let language = known.get(key);
  if (language === undefined) {
    language = detect(text, fallback);
    known.set(key, language);
  }
  return language;
}

function detect(given: string, fallback: Language): Language {
  // A word over 40 letters is noise, not language: 42 random letters after a Portuguese question
  // made it Spanish.
  const text = withoutLongWords(given);
  const letters = words(text).filter((word) => /\p{L}/u.test(word));
  // Chat spelling only the interface language uses settles it ("to" is "estou"), unless more
  // small words of one other language say otherwise ("how much to pull a tooth").
  const chat = ownChatWords(letters, fallback);
  if (letters.length < MIN_WORDS || letters.join('').length < MIN_LETTERS) return fallback;
  const ranked = detectAll(text, { only: ONLY });
  const [first, second] = ranked;
  if (!first || !CODES[first.lang]) return fallback;
  const detected = CODES[first.lang]!;
  if (detected === fallback) return fallback;
  // "Quanto custa uma consulta de higiene oral com flúor?" reads as Spanish by its letters; its
  // small words say Portuguese. Small words of the detected language alone settle a close call.
  const own = ownSmallWords(letters, detected) - ownSmallWords(letters, fallback) - chat;
  if (own < 0 || (chat > 0 && own === 0)) return fallback;
  if (own > 0) return detected;
  const fallbackScore = ranked.find((r) => CODES[r.lang] === fallback)?.accuracy ?? 0;
  if (first.accuracy < MIN_LEAD * Math.max(fallbackScore, second?.accuracy ?? 0)) return fallback;
  return detected;
}

/**
 * The languages other than `answered` that the detector ranks above it for `text`, likeliest
 * first, however short the text: where to look again when the answer in `answered` found nothing.
 * "Como conecto meu WhatsApp?" on an English interface is too close a call between Portuguese
 * and Spanish to be detected, yet it reads more like either than like English.
 */
export function likelierThan(text: string, answered: Language): Language[] {
  const ranked = detectAll(withoutLongWords(text), { only: ONLY }).flatMap((result) =>
    CODES[result.lang] ? [{ language: CODES[result.lang]!, accuracy: result.accuracy }] : [],
  );
  const answeredScore = ranked.find((r) => r.language === answered)?.accuracy ?? 0;
  return ranked.filter((r) => r.accuracy > answeredScore).map((r) => r.language);
}

/**
 * Whether `text` may be read in `other` instead of `answered`: not when its small words are more
 * of `answered`'s ("A clínica é credenciada à Amil Dental?" is Portuguese, though Spanish
 * knowledge may find something in it).
 */
export function mayBeIn(text: string, other: Language, answered: Language): boolean {
  const said = words(withoutLongWords(text));
  return ownSmallWords(said, other) >= ownSmallWords(said, answered);
}
