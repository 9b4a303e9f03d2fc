import { setImmediate as nextTurn } from 'node:timers/promises';
import type { KnowledgeEntry, Language } from '@contrateia/shared';
import { calculationIn } from './ai.arithmetic';
import type { AgentEngine, EngineRequest, LiveFacts } from './ai.engine';
import { throwIfAborted } from './ai.errors';
import { PHRASES, VOCABULARY, perLanguage, type Phrases, type Vocabulary } from './ai.phrases';
import {
  KnowledgeIndexCache,
  normalizeText,
  processWord,
  queryTerms,
  words,
  type KnowledgeIndex,
} from './ai.search';

/**
 * The offline engine: deterministic answers from each agent's knowledge and a few skills of its
 * own, in the request's language. It never invents: when nothing fits it says so and offers what
 * it can do.
 */

/** One question being answered: the message (courtesies removed) and what answering needs. */
type Turn = {
  request: EngineRequest;
  language: Language;
  /** The message after greetings and thanks, normalized (lower case, no accents). */
  text: string;
  /** The same as plain words, for the phrase patterns. */
  plain: string;
  terms: string[];
  index: KnowledgeIndex;
  phrases: Phrases;
  vocabulary: Vocabulary;
  now: Date;
};

/** A skill answers the turn or passes (undefined) to the next one. */
type Skill = (turn: Turn) => string | undefined | Promise<string | undefined>;

type Profile = {
  skills: Skill[];
  /** What the agent says when nothing answered. */
  fallback: 'notFound' | 'cannotYet';
  /** Its own abilities, offered before its knowledge when it suggests topics. */
  abilities?: keyof Phrases['skills'];
};

const SUGGESTIONS = 3;

export type BuiltinEngineOptions = {
  /** The clock, replaceable so that tests of date and time answers are deterministic. */
  now?: () => Date;
};

export function createBuiltinEngine(options: BuiltinEngineOptions = {}): AgentEngine {
  const indexes = new KnowledgeIndexCache();
  const now = options.now ?? (() => new Date());
  return {
    name: 'builtin',
    async *reply(request) {
      throwIfAborted(request.signal);
      const answer = await answerFor(request, indexes, now());
      const text = limitLength(answer, request.agent.configuration.model.maxReplyLength);
      for (const piece of pieces(text)) {
        throwIfAborted(request.signal);
        yield piece;
        // Let the caller write each piece out before the next: the stream is a real one.
        await nextTurn();
      }
    },
  };
}

async function answerFor(
  request: EngineRequest,
  indexes: KnowledgeIndexCache,
  now: Date,
): Promise<string> {
  const { language, agent } = request;
  const phrases = PHRASES[language];
  const vocabulary = VOCABULARY[language];
  const index = indexes.get(agent.name, language, agent.configuration.knowledge);
  const profile = PROFILES.get(agent.name) ?? DEFAULT_PROFILE;

  const courtesy = stripCourtesy(normalizeText(request.message), vocabulary, agent.name);
  // The agent's own name says nothing about the question ("guia, como…").
  const ownName = processWord(agent.name, language);
  const turn: Turn = {
    request,
    language,
    text: courtesy.rest,
    plain: words(courtesy.rest).join(' '),
    terms: queryTerms(courtesy.rest, language).filter((term) => term !== ownName),
    index,
    phrases,
    vocabulary,
    now,
  };
  const bare = turn.terms.length === 0 && !/\d/.test(turn.text);
  if (bare && courtesy.thanked) return phrases.thanks;
  if (bare && courtesy.greeted) {
    return withTopics(phrases.greeting, phrases.forExample, topics(turn, profile), phrases);
  }

  for (const skill of profile.skills) {
    const reply = await skill(turn);
    if (reply !== undefined) return reply;
  }
  if (bare) return withTopics('', phrases.canHelpWith, topics(turn, profile), phrases);
  const match = index.best(turn.terms);
  if (match) return renderEntry(match.entry, phrases);
  const intro = profile.fallback === 'cannotYet' ? phrases.forNow : phrases.canHelpWith;
  return withTopics(phrases[profile.fallback], intro, topics(turn, profile), phrases);
}

/**
 * Removes leading greetings and thanks ("Oi guia, tudo bem? Como…") so the question behind them
 * is answered, and says which were there.
 */
function stripCourtesy(
  normalized: string,
  vocabulary: Vocabulary,
  agentName: string,
): { rest: string; greeted: boolean; thanked: boolean } {
  let rest = normalized.trim();
  let greeted = false;
  let thanked = false;
  // Agent names are slugs (a-z, 0-9, dashes), so they need no escaping beyond dropping the rest.
  const name = new RegExp(`^${agentName.replace(/[^a-z0-9-]/g, '')}\\b`);
  for (;;) {
    // Leading punctuation goes, but not signs and brackets: "-2 + 3" is a calculation.
    rest = rest.replace(/^[^\p{L}\p{N}(+\-.]+/u, '');
    const greeting = vocabulary.greeting.exec(rest);
    const thanks = greeting ? null : vocabulary.thanks.exec(rest);
    const named = (greeted || thanked) && !greeting && !thanks ? name.exec(rest) : null;
    const match = greeting ?? thanks ?? named;
    if (!match || match[0].length === 0) break;
    greeted ||= greeting !== null;
    thanked ||= thanks !== null;
    rest = rest.slice(match[0].length);
  }
  return { rest, greeted, thanked };
}

// Skills ------------------------------------------------------------------------------------

const countFormat = perLanguage((language) => new Intl.NumberFormat(PHRASES[language].locale));
const resultFormat = perLanguage(
  (language) => new Intl.NumberFormat(PHRASES[language].locale, { maximumFractionDigits: 10 }),
);
// Dates and times are told in each language's own zone (see Phrases.timeZone).
const dateFormat = perLanguage(
  (language) =>
    new Intl.DateTimeFormat(PHRASES[language].locale, {
      timeZone: PHRASES[language].timeZone,
      dateStyle: 'full',
    }),
);
const timeFormat = perLanguage(
  (language) =>
    new Intl.DateTimeFormat(PHRASES[language].locale, {
      timeZone: PHRASES[language].timeZone,
      timeStyle: 'short',
    }),
);

const calculation: Skill = ({ text, language, phrases }) => {
  const result = calculationIn(text, language);
  if (!result) return undefined;
  if (!result.ok)
    return result.error === 'division-by-zero' ? phrases.divisionByZero : phrases.notFinite;
  return `${result.shown} = **${resultFormat(language).format(result.value)}**`;
};

const dateTime: Skill = ({ plain, vocabulary, language, phrases, now }) => {
  const asksTime = vocabulary.askTime.test(plain);
  if (!asksTime && !vocabulary.askDate.test(plain)) return undefined;
  const date = dateFormat(language).format(now);
  if (!asksTime) return phrases.today(date);
  return phrases.now(timeFormat(language).format(now), date);
};

type FactTopic = 'users' | 'conversations' | 'messages' | 'database' | 'mail';

/** The live figures a question asks for: counts need a "how many" word, states a "status" one. */
function factTopicsIn(plain: string, vocabulary: Vocabulary): FactTopic[] {
  const said = new Set(plain.split(' '));
  const has = (vocabularySet: ReadonlySet<string>) =>
    [...said].some((word) => vocabularySet.has(word));
  const counting = has(vocabulary.quantity);
  const checking = has(vocabulary.state);
  const topics: FactTopic[] = [];
  if (counting && has(vocabulary.users)) topics.push('users');
  if (counting && has(vocabulary.conversations)) topics.push('conversations');
  if (counting && has(vocabulary.messages)) topics.push('messages');
  if ((checking || counting) && has(vocabulary.database)) topics.push('database');
  if ((checking || counting) && has(vocabulary.mail)) topics.push('mail');
  if (topics.length === 0 && has(vocabulary.overview)) {
    return ['users', 'conversations', 'messages', 'database', 'mail'];
  }
  return topics;
}

const liveFacts: Skill = async ({ plain, vocabulary, language, phrases, request }) => {
  const topics = factTopicsIn(plain, vocabulary);
  if (topics.length === 0) return undefined;
  if (!request.facts) return phrases.factsAdminsOnly;
  let facts: LiveFacts;
  try {
    facts = await request.facts();
  } catch {
    // The figures come from the database; if it is down the admin still gets an honest answer.
    return phrases.factsUnavailable;
  }
  const count = (n: number) => countFormat(language).format(n);
  const lines = topics.map((topic) => {
    switch (topic) {
      case 'users':
        return phrases.users(count(facts.users), facts.users === 1);
      case 'conversations':
        return phrases.conversationsToday(
          count(facts.conversationsToday),
          facts.conversationsToday === 1,
        );
      case 'messages':
        return phrases.messagesToday(count(facts.messagesToday), facts.messagesToday === 1);
      case 'database':
        return phrases.database(facts.database);
      case 'mail':
        return phrases.mail(facts.mail);
    }
  });
  return lines.length === 1 ? lines[0] : lines.map((line) => `- ${line}`).join('\n');
};

/**
 * auxtrat: "how much is X" and "what do you offer" are about the catalogue, so price and
 * catalogue words are set aside and the rest names the product; with nothing left, the list.
 */
const catalogue: Skill = ({ plain, terms, vocabulary, language, index, phrases }) => {
  const said = plain.split(' ');
  const asksPrice = said.some((word) => vocabulary.price.has(word));
  const asksList = said.some((word) => vocabulary.catalogue.has(word));
  if (!asksPrice && !asksList) return undefined;
  const setAside = catalogueTerms(language);
  const product = terms.filter((term) => !setAside.has(term));
  if (product.length === 0) {
    const list = index.entries.map((entry) => `- ${entry.title}`).join('\n');
    return `${phrases.catalogueIntro}\n\n${list}\n\n${phrases.catalogueOutro}`;
  }
  const match = index.best(product);
  return match ? renderEntry(match.entry, phrases) : undefined;
};

/** The price and catalogue words as search terms, which catalogue sets aside. */
const catalogueTerms = perLanguage(
  (language) =>
    new Set(
      [...VOCABULARY[language].price, ...VOCABULARY[language].catalogue].map((word) =>
        processWord(word, language),
      ),
    ),
);

/** indirect: a phone number in the message is an attempt to send, which cannot be done yet. */
const delivery: Skill = ({ request, phrases }) =>
  /\+?\d[\d\s().-]{7,}\d/.test(request.message) ? phrases.deliveryPending : undefined;

// A Map, not an object: agent names come from admins, and "constructor" must not find Object's.
const PROFILES = new Map<string, Profile>([
  ['guia', { skills: [], fallback: 'notFound' }],
  ['auxtrat', { skills: [catalogue], fallback: 'notFound', abilities: 'auxtrat' }],
  ['administrador', { skills: [liveFacts], fallback: 'notFound', abilities: 'administrador' }],
  [
    'assistente',
    { skills: [calculation, dateTime], fallback: 'cannotYet', abilities: 'assistente' },
  ],
  ['indirect', { skills: [delivery], fallback: 'notFound' }],
]);

// Agents an admin creates answer from their knowledge only.
const DEFAULT_PROFILE: Profile = { skills: [], fallback: 'notFound' };

// Rendering ---------------------------------------------------------------------------------

function renderEntry(entry: KnowledgeEntry, phrases: Phrases): string {
  const parts = [`**${entry.title}**`, entry.content];
  if (entry.link) parts.push(`${phrases.page} [${entry.link}](${entry.link})`);
  return parts.join('\n\n');
}

/** What the agent can do: its own abilities first, then the first topics of its knowledge. */
function topics(turn: Turn, profile: Profile): string[] {
  const abilities = profile.abilities ? turn.phrases.skills[profile.abilities] : [];
  return [...abilities, ...turn.index.entries.map((entry) => entry.title)].slice(0, SUGGESTIONS);
}

/** "lead intro" and the topics as a list; without topics, the lead alone (or "not found"). */
function withTopics(lead: string, intro: string, list: string[], phrases: Phrases): string {
  if (list.length === 0) return lead || phrases.notFound;
  const heading = lead ? `${lead} ${intro}` : intro;
  return `${heading}\n${list.map((topic) => `- ${topic}`).join('\n')}`;
}

/** Cuts a reply to the agent's maximum length at a word boundary. */
function limitLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.search(/\s\S*$/);
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * Splits a reply into sentence-sized pieces (each keeps its trailing space or line break) so
 * that the stream carries it in several chunks; joined, the pieces are the reply.
 */
export function pieces(text: string): string[] {
  return text.match(/[\s\S]+?(?:[.!?:](?=\s)|\n|$)\s*/g) ?? [text];
}
