import type { Language } from '@contrateia/shared';
import enUS from './spelling/en-US.json';
import esES from './spelling/es-ES.json';
import ptBR from './spelling/pt-BR.json';

// How people type in a chat ("vc sabe q dia é hj?", "thx u", "xq no funciona"), as data: one
// list per language in ./spelling, abbreviation → the words it stands for, written as they are
// after normalizeText (lower case, no accents). Adding a word is a data change, not a code one.
const LISTS: Record<Language, Readonly<Record<string, string>>> = {
  'pt-BR': ptBR,
  'en-US': enUS,
  'es-ES': esES,
};

/** `normalized` with each chat abbreviation of `language` written out; other words untouched. */
export function expandChatSpelling(normalized: string, language: Language): string {
  const list = LISTS[language];
  return normalized.replace(/[\p{L}\p{N}]+/gu, (word) =>
    Object.hasOwn(list, word) ? list[word]! : word,
  );
}

/**
 * The chat words of `text` (normalized words) that only `language` lists: "pra", "zap" and "vc"
 * say Portuguese, though a detector trained on written prose may read "da pra conectar o zap"
 * as Spanish.
 */
export function ownChatWords(words: readonly string[], language: Language): number {
  const others = (Object.keys(LISTS) as Language[]).filter((other) => other !== language);
  return words.filter(
    (word) =>
      Object.hasOwn(LISTS[language], word) &&
      others.every((other) => !Object.hasOwn(LISTS[other], word)),
  ).length;
}
