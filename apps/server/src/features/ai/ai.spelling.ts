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

/**
 * How a Portuguese or Spanish word sounds, as a key: two spellings of one sound ("ciso" and
 * "siso", "ora" and "hora", "aranca" and "arranca", "manhan" and "manhã", "cosinha" and
 * "cozinha") get one key. People who write as they speak write these; the key is only compared,
 * never shown. English is left as written: its misspellings follow other rules.
 */
export function soundKey(word: string, language: Language): string {
  if (language === 'en-US') return word;
  return (
    word
      .replace(/^h/, '')
      .replace(/sc(?=[ei])/g, 's')
      .replace(/c(?=[ei])/g, 's')
      .replace(/qu(?=[ei])/g, 'k')
      .replace(/c(?=[aou])/g, 'k')
      .replace(/ch/g, 'x')
      .replace(/g(?=[ei])/g, 'j')
      .replace(/z/g, 's')
      .replace(/lh/g, 'li')
      .replace(/y/g, 'i')
      .replace(/w/g, 'u')
      // A nasal ending: "manhan" is "manhã", "vejam" ends as "veja" sounds.
      .replace(/([aeiou])[mn]$/, '$1')
      .replace(/(.)\1+/g, '$1')
  );
}

/**
 * Words by how they sound (soundKey), so that a word typed as it sounds finds the one written: a
 * key two different words share stands for neither.
 */
export class SoundsLike {
  private readonly words = new Map<string, string | null>();

  constructor(private readonly language: Language) {}

  add(word: string) {
    if (word.length < 3) return;
    const key = soundKey(word, this.language);
    const known = this.words.get(key);
    if (known === undefined) this.words.set(key, word);
    else if (known !== null && known !== word) this.words.set(key, null);
  }

  /** The word `word` sounds like, when it is another one and the only one; else undefined. */
  find(word: string): string | undefined {
    const found = this.words.get(soundKey(word, this.language));
    return found && found !== word ? found : undefined;
  }
}
