import { LRUCache } from 'lru-cache';
import { setImmediate as nextTurn } from 'node:timers/promises';
import MiniSearch from 'minisearch';
import type { KnowledgeEntry, Language } from '@contrateia/shared';
import { conceptsOf, isConcept } from './ai.concepts';
import { SoundsLike } from './ai.spelling';

/** Lower case without diacritics, so 'Conexão', 'conexao' and 'CONEXÃO' are one word. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * The longest word spelling and search read. No word of a question or a topic is longer (the
 * longest in Portuguese has 46 letters and no one types it); a longer one is noise, and fuzzy
 * search costs (n + d) × n for a word of n letters: a word of 64 K letters threw a RangeError.
 */
export const MAX_WORD_CHARS = 40;

/** The normalized words of a text: letters and digits, split on everything else; none over MAX_WORD_CHARS. */
export function words(text: string): string[] {
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && word.length <= MAX_WORD_CHARS);
}

const LONG_WORD = new RegExp(`[\\p{L}\\p{N}]{${MAX_WORD_CHARS + 1},}`, 'gu');

/** `text` without its words (runs of letters and digits) over MAX_WORD_CHARS: what spelling, search and language detection read. */
export function withoutLongWords(text: string): string {
  return text.replace(LONG_WORD, '');
}

// Words that carry no topic: articles, pronouns, question words, and the verbs people wrap a
// question in ("I'd like to know how…"). Dropped on both sides so that "como conecto meu
// WhatsApp" is searched as "conect whatsapp" and a question made only of them counts as empty.
// Written without accents because they are compared after normalizeText.
const STOPWORDS: Record<Language, ReadonlySet<string>> = {
  'pt-BR': new Set(
    (
      'a o as os um uma uns umas de da do das dos em no na nos nas num numa para pra pro por pelo pela ' +
      'com sem como que qual quais quem e ou mas se eu tu ele ela nos voce voces vc meu minha meus minhas ' +
      'seu sua seus suas teu tua me te lhe isso isto este esta esse essa aquele aquela ai ali aqui la ' +
      'onde quando porque ser sou e era sao estar estou esta estao ter tenho tem temos ha havia ' +
      'quiser quer queira ' +
      'posso pode podes podemos podem poderia consigo consegue fazer faco faz fazes fazem sabe sabes ' +
      'quero queria gostaria preciso precisa ' +
      'saber sei sabe explica explique explicar diga dizer fale falar mostre mostrar funciona funcionar ' +
      'ver vejo vemos encontro encontrar acho achar fica ficam ' +
      'ao aos entao tambem ja ainda so muito mais menos algum alguma algo coisa favor porfavor ' +
      'ola oi ok sim nao nem obrigado obrigada ajuda ajudar ' +
      // Verbs that only carry the question: "quanto é pra tirar o tártaro", "me passa a tabela",
      // "o clareamento feito no consultório", "o que devo trazer", "é realizado sob anestesia?".
      'tirar tira tiram passa manda feito feita feitos feitas devo deve devem quantos quantas ' +
      'realiza realizam realizado realizada realizados realizadas sob ' +
      'dao dar usa usam usar pegar pego mesmo mesma outro outra outros outras lugar ' +
      // Who it is for: "pro meu marido", "pra mim".
      'mim comigo marido esposa mae pai avo vovo neto neta vou ' +
      'muitos muitas senhora senhor senhorita mandar gentileza informar informa informe ' +
      'perguntar pergunta perguntou naquele naquela nesse nessa neste nesta desse ' +
      'dessa logo antes depois alguem madrugada uso dele dela deles delas ne ficar unitario unitaria ' +
      // Words of a formal request: "solicito o endereço, inclusive o CEP".
      'solicito solicita solicitar solicitamos inclusive incluindo ' +
      // Who works there is the business ("quantos dentistas trabalham aí?"); leaving something
      // ("onde eu deixo?") and "cada" ("qto custa cada um?") carry no topic either.
      'trabalha trabalham deixa deixo deixar deixam cada ' +
      // Who is spoken to: "qnt ta a limpeza ai mano".
      'mano mana manin parca parceiro parceira moca moco querida querido amigao migo miga ' +
      // …and in Bahia and Rio: "lasquei o dente, mermão", "ô pai, quanto tá?", "meu rei".
      'mermao rei ' +
      // Pointing back, and a formal request: "uma restauração daquelas branquinha", "poderiam
      // me enviar a relação de procedimentos com os respectivos valores".
      'daquele daquela daqueles daquelas aqueles aquelas poderiam ' +
      'respectivo respectiva respectivos respectivas ' +
      // What a price or a visit includes is asked of the thing named: "a profilaxia inclui
      // remoção de tártaro?"; and "alguns" as "algum".
      'inclui incluem alguns algumas ' +
      // "tipo" compares ("os dentes brancos tipo de famoso"), or asks which kind: no topic.
      'tipo ' +
      // Other forms of the verbs that carry a question ("capaz q tenha horário de sábado?", "vou
      // precisar de recibo pra pedir reembolso"), "capaz que" (maybe), and the words of all or
      // of precision: "manda tudo aí", "vcs ficam onde exatamente?"
      'tenha tenham tiver tiverem capaz precisar precisamos pedir pede pedem ' +
      'tudo todo toda todos todas exatamente ' +
      // The written register's words that carry the request ("Ademais, necessito de recibo…
      // Os senhores o fornecem?", "Seria possível utilizá-lo?", "Informo que sou…"), the pronoun
      // joined to a verb ("providenciá-lo"), and the place as a whole: "o endereço do
      // estabelecimento".
      'ademais outrossim necessito necessita necessitamos senhores senhoras fornece fornecem ' +
      'fornecer seria possivel utilizar utiliza utilizam informo lo los estabelecimento ' +
      // Interjections, which carry no topic: "caraca, lasquei o dente", "vixe, e demora?"
      'caraca vixe oxe oxente eita uai egua pouco pouca'
    ).split(' '),
  ),
  'en-US': new Set(
    (
      'a an the i me my mine you your yours he she it its we our they their this that these those ' +
      'do does did doing done how what which who whom where when why is are am was were be been being ' +
      'to of in on at by for from with without into about as and or but if so than then there here ' +
      'can could would should will shall may might must please tell show explain know want wanted like ' +
      'let lets give make see find ' +
      'need get got some any anything something thing just also very much many more most work works ' +
      'hi hello hey thanks ok yes no not help exactly really actually regular up ' +
      'mate buddy pal dude bro folks guys start finish whole each ' +
      // The building is the business's place, as "lugar" is: "is the building accessible?"
      'building ' +
      // Coming along, as one ought to: "what ought I bring along when I come in?"
      'ought along come comes coming rather ' +
      // A dentist's or doctor's practice is the business's place too: "at your practice".
      'practice ' +
      // The words that wrap a request politely ("Please I want to ask, how much…", "Kindly tell
      // me…"), and the Nigerian particles of emphasis: "The pain can come anytime sha", "How much
      // is the panoramic x-ray sef?"
      'ask asking kindly sha sef ' +
      // The pronouns and auxiliaries the list lacked, and going as coming: "Can he go alone for
      // his appointment?", "this Pix thing everyone has", "do you have parking?"
      'his her him hers everyone everybody someone somebody anyone anybody has have had go goes'
    ).split(' '),
  ),
  'es-ES': new Set(
    (
      'el la los las un una unos unas de del al en por para con sin como que cual cuales quien y o u pero ' +
      'si yo tu el ella nosotros usted ustedes mi mis tu tus su sus me te se le lo eso esto este esta ese ' +
      'esa aqui alli ahi donde cuando porque es son ser soy era estar estoy esta estan hay tengo tiene ' +
      'tenemos tienen cierto verdad despues puedo puede puedes pueden podemos podrias hacer hago hace haces hacen quiero queria quisiera ' +
      'necesito necesita saber se sabe sabes ver veo vemos encuentro encontrar ' +
      'explica explicar dime decir muestra mostrar funciona funcionar tambien ya todavia solo muy mas menos ' +
      'algun alguna algo cosa favor hola ok no gracias ayuda ayudar ' +
      'realiza realizan realizado realizada realizados realizadas ' +
      'amigo amiga che chicos chicas mismo misma cada ' +
      // Verbs that only hand over what is asked: "¿me pasan la lista de precios?"
      'pasa pasan pasas manda mandan mandas ' +
      // The Chilean "po" (pues) that ends a question, and "todo" ("todo el proceso").
      'po todo toda ' +
      // The building is the business's place, as "building" is in English: "¿el edificio tiene
      // ascensor?"; and "exactamente".
      'edificio exactamente ' +
      // The Uruguayan "bo" and the Caribbean "chica" that call whom one speaks to: "¿Dónde
      // quedan, bo?", "¿Están abiertos ahorita, chica?"
      'bo chica ' +
      // Handing over, with whom to ("Pasame la dirección"), as "pasa" and "manda" are.
      'pasame mandame pasenme mandenme'
    ).split(' '),
  ),
};

// Light suffix stripping, longest suffix first, one strip per word, never below three letters.
// MiniSearch does not stem, and Portuguese and Spanish verbs conjugate heavily ("conecto",
// "conectar", "conectado"): without this only fuzzy matching would join them, and only for the
// short endings. A full Snowball stemmer would be more exact, but this is enough to meet on a
// shared stem, is deterministic, and needs no dependency; the engine also indexes keywords.
// prettier-ignore
const SUFFIXES: Record<Language, readonly string[]> = {
  'pt-BR': [
    'amentos', 'imentos', 'amento', 'imento', 'acoes', 'icoes', 'adoras', 'adores', 'mente', 'acao',
    'icao', 'ando', 'endo', 'indo', 'ados', 'idos', 'adas', 'idas', 'coes', 'oes', 'cao', 'ado', 'ido',
    'ada', 'ida', 'ens', 'ao', 'ar', 'er', 'ir', 'am', 'em', 'es', 'os', 'as', 'a', 'e', 'o', 's',
    // Short infinitives ("sair", "ler") meet their forms ("saio", "sai") on the stem.
    'r',
  ],
  'en-US': ['ations', 'ation', 'ings', 'ions', 'ing', 'ion', 'ers', 'ies', 'er', 'ed', 'es', 'ly', 's', 'e'],
  'es-ES': [
    'amientos', 'imientos', 'amiento', 'imiento', 'aciones', 'iciones', 'acion', 'icion', 'iones', 'mente',
    'arse', 'erse', 'irse',
    'ando', 'iendo', 'ados', 'idos', 'adas', 'idas', 'ion', 'ado', 'ido', 'ada', 'ida', 'ar', 'er', 'ir',
    'an', 'en', 'es', 'os', 'as', 'a', 'e', 'o', 's',
  ],
};

const MIN_STEM = 3;

function stem(word: string, language: Language): string {
  for (const suffix of SUFFIXES[language]) {
    if (word.endsWith(suffix) && word.length - suffix.length >= MIN_STEM) {
      return word.slice(0, -suffix.length);
    }
  }
  return word;
}

const conceptOf = conceptsOf(stem);

/** Laughter, typed in any of the three languages ("kkkk", "hahaha", "jajaja", "rsrs"): no topic. */
const LAUGHTER = /^(k{3,}|(ha){2,}h?|(he){2,}|(ja){2,}|(je){2,}|(rs){2,}|lol|lmao)$/;

/**
 * A normalized word as it is indexed and searched: null when it carries no topic; its group's
 * term when it has one (ai.concepts.ts: "obturacao" and "filling" are "restauracao"), else its
 * stem.
 */
export function processWord(word: string, language: Language): string | null {
  if (word.length < 2 || STOPWORDS[language].has(word) || LAUGHTER.test(word)) return null;
  return conceptOf(word, language) ?? stem(word, language);
}

/**
 * How many of `said` (normalized words) are small words of `language` alone ("uma", "com",
 * "você" are Portuguese; "una", "con", "usted" Spanish): a sign of the language that a
 * detector of letter patterns may miss in a question full of words both languages share.
 */
export function ownSmallWords(said: readonly string[], language: Language): number {
  const others = (Object.keys(STOPWORDS) as Language[]).filter((other) => other !== language);
  return said.filter(
    (word) => STOPWORDS[language].has(word) && others.every((other) => !STOPWORDS[other].has(word)),
  ).length;
}

/** The searchable terms of a question, in order, without repeats. */
export function queryTerms(text: string, language: Language): string[] {
  const terms = words(text)
    .map((word) => processWord(word, language))
    .filter((term): term is string => term !== null);
  return [...new Set(terms)];
}

export type KnowledgeMatch = {
  entry: KnowledgeEntry;
  score: number;
  /** Share of the question's terms found in the entry, 0 to 1. */
  coverage: number;
  /** How many of those terms are in the entry's title or keywords. */
  topicHits: number;
  /** Words in the longest of the entry's title and keyword phrases the question says in full. */
  phrase: number;
  /** The question's terms the entry has (as they are, or by prefix or a typo away). */
  terms: readonly string[];
};

// A question must meet the entry on more than half of its topic words: one stray hit in a
// two- or three-word question ("me conta uma piada" → "conta", the account) is not an answer.
// 0.6 is tuned on the test set (ai.test-set.ts): at 0.5 one out-of-scope question in 32 got an
// unrelated entry; at 0.67 in-scope questions with one word of chat filler went unanswered.
const MIN_COVERAGE = 0.6;

// A question of this many topic words or more must meet the entry's title or keywords on two of
// them: a long message that shares everyday words with an entry's text ("uma mensagem comprida,
// para a conversa passar da altura da tela" met the hidden-number entry on "conversa" alone, the
// rest in its content) is not about it. Tuned on the test set: no in-scope question lost.
const LONG_QUESTION = 5;

function compare(a: KnowledgeMatch, b: KnowledgeMatch): number {
  return (
    a.coverage - b.coverage || a.topicHits - b.topicHits || a.phrase - b.phrase || a.score - b.score
  );
}

// MiniSearch's fuzzy matching (below) allows one edit on words of this length and more.
const FUZZY_FROM = 5;

/**
 * A word as a phrase compares it: its search term, or the word itself when it is a stopword.
 * "which agents" and "qué agentes" keep the question word that search drops, so that a question
 * saying them in full is told from "how do I hire an agent", which has the same search terms.
 */
function phraseToken(word: string, language: Language): string {
  return processWord(word, language) ?? word;
}

/** Whether `phrase` occurs in `said` as consecutive tokens. */
function says(said: readonly string[], phrase: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= said.length; start++) {
    if (phrase.every((token, offset) => said[start + offset] === token)) return true;
  }
  return false;
}

/** How many entries an index takes in between two turns of the event loop (KnowledgeIndex.build). */
const BUILD_CHUNK = 100;

// A document is known to MiniSearch by its position: entry ids come from admins' edits and the
// catalogue, and a repeated id must not make the whole agent unsearchable (MiniSearch throws).
type Document = { position: number; entry: KnowledgeEntry };

/** The knowledge of one agent in one language, searchable. */
export class KnowledgeIndex {
  private readonly search: MiniSearch<Document>;
  /** Every term the entries are indexed under. */
  private readonly vocabulary = new Set<string>();
  /** Per entry, its title and multi-word keywords as phrase tokens (see phraseToken). */
  private readonly phrases: string[][][] = [];
  /** The entries' words by how they sound: "ciso" finds "siso" (see soundKey). */
  readonly sounds: SoundsLike;

  /**
   * The index of `entries`, built at once. An agent's knowledge can be thousands of passages:
   * where it is, build it with KnowledgeIndex.build, which lets other work run meanwhile.
   */
  constructor(
    readonly entries: readonly KnowledgeEntry[],
    private readonly language: Language,
    { deferred = false }: { deferred?: boolean } = {},
  ) {
    this.sounds = new SoundsLike(language);
    this.search = new MiniSearch<Document>({
      idField: 'position',
      fields: ['title', 'keywords', 'content'],
      extractField: (document, field) => {
        if (field === 'position') return String(document.position);
        const value = document.entry[field as keyof KnowledgeEntry];
        return Array.isArray(value) ? value.join(' ') : String(value ?? '');
      },
      tokenize: words,
      processTerm: (term) => processWord(normalizeText(term), language),
    });
    if (deferred) return;
    this.search.addAll(this.documents());
    for (const entry of entries) this.learn(entry);
  }

  /**
   * The index of `entries`, built a chunk of entries at a time with the event loop free between
   * chunks: an own agent's 1,000 passages took a third of a second in one piece, every request
   * of the instance waiting meanwhile.
   */
  static async build(
    entries: readonly KnowledgeEntry[],
    language: Language,
  ): Promise<KnowledgeIndex> {
    const index = new KnowledgeIndex(entries, language, { deferred: true });
    await index.search.addAllAsync(index.documents(), { chunkSize: BUILD_CHUNK });
    for (const [position, entry] of entries.entries()) {
      index.learn(entry);
      if (position % BUILD_CHUNK === BUILD_CHUNK - 1) await nextTurn();
    }
    return index;
  }

  private documents(): Document[] {
    return this.entries.map((entry, position) => ({ position, entry }));
  }

  /** Takes in an entry's terms and phrases, in the entries' order. */
  private learn(entry: KnowledgeEntry) {
    const { language } = this;
    for (const word of words([entry.title, ...entry.keywords, entry.content].join(' '))) {
      const term = processWord(word, language);
      if (term === null) continue;
      this.vocabulary.add(term);
      this.sounds.add(word);
    }
    // A phrase of one word is a term, which search already weighs; one made only of stopwords
    // ("what is this") says nothing about a topic.
    this.phrases.push(
      [entry.title, ...entry.keywords]
        .map((text) => words(text))
        .filter(
          (said) => said.length > 1 && said.some((word) => processWord(word, language) !== null),
        )
        .map((said) => said.map((word) => phraseToken(word, language))),
    );
  }

  /**
   * `said` (normalized words) with each word the index does not know, but would with two
   * neighbouring letters swapped, written that way: "agnet" → "agent", "agnetes" → "agentes".
   * A swap is the commonest slip in typing, and MiniSearch's fuzzy matching counts it as two
   * edits, more than it allows on a short word. Only words whose term is as long as fuzzy
   * matching needs and matches nothing as it is (neither a term nor the start of one) are
   * corrected, and only into a term of this agent's own knowledge: a word that is no swap of one
   * stays as typed.
   */
  correctSwaps(said: readonly string[]): string[] {
    return said.map((word) => {
      const term = processWord(word, this.language);
      if (term === null || term.length < FUZZY_FROM || this.knows(term)) return word;
      for (let i = 0; i + 1 < word.length; i++) {
        if (word[i] === word[i + 1]) continue;
        const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
        const corrected = processWord(swapped, this.language);
        if (corrected !== null && this.vocabulary.has(corrected)) return swapped;
      }
      return word;
    });
  }

  /** Whether a term finds an indexed one as it is: equal, or (as rank's prefix search) its start. */
  knows(term: string): boolean {
    if (this.vocabulary.has(term)) return true;
    if (term.length < 4 || isConcept(term)) return false;
    for (const known of this.vocabulary) if (known.startsWith(term)) return true;
    return false;
  }

  /**
   * Entries ranked by relevance to already processed terms (see queryTerms). `said`, the
   * question's normalized words, lets an entry whose title or keyword phrase it says in full
   * stand out among equals (see best).
   */
  rank(terms: readonly string[], said: readonly string[] = []): KnowledgeMatch[] {
    if (terms.length === 0) return [];
    const tokens = said.map((word) => phraseToken(word, this.language));
    const results = this.search.search(terms.join(' '), {
      // The terms are processed already: split them back and keep them as they are.
      tokenize: (query) => query.split(' '),
      processTerm: (term) => term,
      boost: { title: 3, keywords: 2 },
      // Fuzzy and prefix matching only on longer terms: on three letters they match noise
      // ("sea" → "search").
      // A group's term is matched exactly: "~crown" is not the start of "~crowning".
      fuzzy: (term) => (term.length >= FUZZY_FROM && !isConcept(term) ? 0.2 : false),
      prefix: (term) => term.length >= 4 && !isConcept(term),
    });
    return results.flatMap((result) => {
      const entry = this.entries[Number(result.id)];
      if (!entry) return [];
      const coverage = new Set(result.queryTerms).size / terms.length;
      // Matched words of the entry that are in its title or keywords (several words can stand
      // for one query term through prefixes, hence the cap).
      const topical = Object.values(result.match as Record<string, string[]>).filter(
        (fields) => fields.includes('title') || fields.includes('keywords'),
      ).length;
      const topicHits = Math.min(topical, result.queryTerms.length);
      const phrases = this.phrases[Number(result.id)] ?? [];
      const phrase = Math.max(0, ...phrases.filter((p) => says(tokens, p)).map((p) => p.length));
      return [
        { entry, score: result.score, coverage, topicHits, phrase, terms: result.queryTerms },
      ];
    });
  }

  /**
   * The best entry for a question, or undefined when nothing answers it well enough. It must
   * cover half the question's terms, and one of them (two in a long question) must be in its
   * title or keywords: an entry that only mentions a word in passing is not about it. Among
   * those, the one covering most of the question wins, then the one most about it (terms in title
   * and keywords), then the one whose title or keyword it says in the longest phrase (`said`:
   * "which agents are there" is about the agents, "how do I hire an agent" about hiring), then the
   * score: a short title that repeats one word must not beat an entry that matches every word.
   */
  best(
    terms: readonly string[],
    said: readonly string[] = [],
    among: (entry: KnowledgeEntry) => boolean = () => true,
  ): KnowledgeMatch | undefined {
    let best: KnowledgeMatch | undefined;
    const topicHitsNeeded = terms.length >= LONG_QUESTION ? 2 : 1;
    const ranked = this.rank(terms, said).filter((match) => among(match.entry));
    // Every word of a short question in one entry's text alone ("o prédio tem rampa?" in the
    // answer about accessibility) is about that entry too.
    const whole = ranked.filter((match) => match.coverage === 1);
    // Not on a stem of three letters, which many words share ("ped" of "pedido" and "pedir").
    const specific = terms.every((term) => isConcept(term) || term.length >= 4);
    const alone =
      whole.length === 1 && terms.length < LONG_QUESTION && specific ? whole[0] : undefined;
    for (const match of ranked) {
      if (match !== alone && match.topicHits < topicHitsNeeded) continue;
      if (match.coverage < MIN_COVERAGE) continue;
      if (!best || compare(match, best) > 0) best = match;
    }
    return best;
  }
}

/**
 * How many versioned configurations an engine keeps what it derived from: an account's own
 * agents answering at once, each index some megabytes at its largest (300 questions and 1,000
 * passages of documents).
 */
const VERSIONS_KEPT = 100;

/**
 * What an engine derives from an agent's configuration in one language (its search index, its
 * catalogue as entries), made once per configuration object. The agents catalogue hands out the
 * same object until the agent changes, and a changed agent is a new object, so an admin's edit is
 * picked up on the next question without any invalidation call, and a reply neither re-serializes
 * nor re-hashes the agent's knowledge.
 */
export class PerConfiguration<T> {
  private readonly values = new WeakMap<object, Map<Language, T>>();
  /** By version, for configurations read anew for each question (EngineAgent.version). */
  private readonly versions = new LRUCache<string, Map<Language, T>>({ max: VERSIONS_KEPT });

  get(configuration: object, language: Language, build: () => T, version?: string): T {
    let byLanguage = version ? this.versions.get(version) : this.values.get(configuration);
    if (!byLanguage) {
      byLanguage = new Map();
      if (version) this.versions.set(version, byLanguage);
      else this.values.set(configuration, byLanguage);
    }
    let value = byLanguage.get(language);
    if (value === undefined) {
      value = build();
      byLanguage.set(language, value);
    }
    return value;
  }
}

/**
 * The language a question in `language` is searched in: its own when the agent's knowledge has
 * it (or has nothing), else the one the knowledge is written in. An account's own agent knows
 * its business in its owner's language alone.
 */
export function knowledgeLanguage(
  knowledge: readonly KnowledgeEntry[],
  language: Language,
): Language {
  const first = knowledge[0];
  if (!first || knowledge.some((entry) => entry.language === language)) return language;
  return first.language;
}

/** An index of the entries in `language` among `knowledge`, built a chunk at a time. */
export function indexFor(
  knowledge: readonly KnowledgeEntry[],
  language: Language,
): Promise<KnowledgeIndex> {
  return KnowledgeIndex.build(
    knowledge.filter((entry) => entry.language === language),
    language,
  );
}
