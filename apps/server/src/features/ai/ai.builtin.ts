import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  DEFAULT_TIME_ZONES,
  sliceWhole,
  type AgentCapabilities,
  type AgentSkill,
  type KnowledgeEntry,
  type Language,
} from '@contrateia/shared';
import { createTranslator, type Translate } from '@/lib/i18n';
import { calculationIn } from './ai.arithmetic';
import { catalogueEntries } from './ai.catalogue';
import {
  boundRequest,
  type AgentEngine,
  type BoundRequest,
  type EngineRequest,
  type LiveFacts,
} from './ai.service';
import { throwIfAborted } from './ai.errors';
import {
  PerConfiguration,
  indexFor,
  knowledgeLanguage,
  normalizeText,
  processWord,
  queryTerms,
  withoutLongWords,
  words,
  type KnowledgeIndex,
} from './ai.search';
import { VOCABULARY, perLanguage, type Vocabulary } from './ai.vocabulary';
import { detectLanguage, likelierThan, mayBeIn } from './ai.language';
import { expandChatSpelling, SoundsLike } from './ai.spelling';
import { asksHowLate, hoursAnswer, saysWhen } from './ai.hours';
import { groupTerm, isConcept, samePhrases, spellGroupWord, wordsOfGroups } from './ai.concepts';

/**
 * The offline engine: deterministic answers from each agent's knowledge and catalogue and the
 * skills its configuration names, in the request's language. It knows no agent by name: an agent
 * is what its configuration says. It never invents: when nothing fits it says so and offers what
 * it can do. Its own sentences are the shared locales' `engine.*` texts.
 */

/** One question being answered: the message (courtesies removed) and what answering needs. */
type Turn = {
  request: BoundRequest;
  language: Language;
  /** The message after greetings and thanks, normalized (lower case, no accents). */
  text: string;
  /**
   * The same as plain words, for the phrase patterns, with the slips the agent's knowledge
   * corrects written right (KnowledgeIndex.correctSwaps).
   */
  plain: string;
  terms: string[];
  /**
   * Every term of the question, those the knowledge's language does not share too (`terms`
   * leaves them out across languages): a price is stated only for an item that has them all,
   * "a root canal on a front tooth" is not the molar's.
   */
  said: string[];
  /**
   * The agent's knowledge and catalogue in the language they are searched in: the question's, or
   * the one the agent's knowledge is written in when it has none in the question's (`source`).
   */
  index: KnowledgeIndex;
  /** The catalogue's items alone, as entries of the index. */
  catalogue: KnowledgeEntry[];
  source: Language;
  /** Entries of the index as the answer quotes them, in the answer's language where it can be. */
  render: (...entries: KnowledgeEntry[]) => string;
  t: Translate;
  vocabulary: Vocabulary;
  now: Date;
};

/** An agent's knowledge and catalogue, searchable, per configuration and language. */
type Prepared = PerConfiguration<Promise<{ index: KnowledgeIndex; catalogue: KnowledgeEntry[] }>>;

/** A skill answers the turn or passes (undefined) to the next one. */
type Skill = (turn: Turn) => string | Answer | undefined | Promise<string | Answer | undefined>;

const SUGGESTIONS = 3;

export type BuiltinEngineOptions = {
  /** The clock, replaceable so that tests of date and time answers are deterministic. */
  now?: () => Date;
  /** The server's translator; one of its own when absent. */
  translate?: (language: Language) => Translate;
};

/**
 * What the engine answered and why: the reply, the language it is written in, and its topic (a
 * knowledge entry's id without its language suffix, `catalogue.<item>`, a skill's name,
 * `greeting`, `thanks`, `topics`, or `refusal` when it found nothing that answers). The test set
 * and `npm run bench` score the engine on these.
 */
export type BuiltinAnswer = { text: string; topic: string; language: Language };

/** The engine's answer to one request, without streaming (see createBuiltinEngine). */
export function createBuiltinAnswerer(
  options: BuiltinEngineOptions = {},
): (request: EngineRequest) => Promise<BuiltinAnswer> {
  const prepared: Prepared = new PerConfiguration();
  const now = options.now ?? (() => new Date());
  const translate = options.translate ?? createTranslator();
  /** The answer to `request`'s message and the language it is in, trying each it may be in. */
  async function answerIn(
    request: BoundRequest,
    fallback: Language,
  ): Promise<Answer & { language: Language }> {
    let language = detectLanguage(request.message, fallback);
    let answer = await answerFor(request, language, prepared, translate, now());
    // Nothing found: a question that reads more like another language (too short, or too close a
    // call, to be detected) is answered from that language's knowledge, in it; then one detected
    // wrongly ("funciona no fim de semana?" reads as Spanish) in the interface's, and in the
    // languages the agent's knowledge is written in (a business's, in its own).
    if (answer.topic === 'refusal' && !answer.final) {
      const others = likelierThan(request.message, language);
      const written = request.agent.configuration.knowledge.map((entry) => entry.language);
      for (const other of new Set([request.language, ...written]))
        if (other !== language && !others.includes(other)) others.push(other);
      for (const other of others) {
        if (!mayBeIn(request.message, other, language)) continue;
        const found = await answerFor(request, other, prepared, translate, now());
        if (found.topic === 'refusal' || found.topic === 'topics') continue;
        answer = found;
        language = other;
        break;
      }
    }
    return { ...answer, language };
  }

  return async (asked) => {
    // It reads no earlier turns (a budget of 0: they are never loaded); each answer comes from
    // the message alone.
    const request = await boundRequest(asked, 0);
    let answer = await answerIn(request, request.language);
    // A question with more said around it ("a panorâmica quanto é? o dentista pediu", "perdi um
    // dente, quanto sai o implante?"): the part that asks something the agent knows.
    if (answer.topic === 'refusal' && !answer.final) {
      const found = await answerInPart(request, answer.language, answerIn);
      if (found) answer = found;
    }
    // A question told with a story around it, in one breath ("qual o endereço de vocês que eu vou
    // pedir pro meu neto me levar"): asked again without the words of the story.
    if (answer.topic === 'refusal' && !answer.final) {
      const found = await answerWithoutAside(request, answer.language, answerIn);
      if (found) answer = found;
    }
    const text = limitLength(answer.text, request.agent.configuration.model.maxReplyLength);
    return { text, topic: answer.topic, language: answer.language };
  };
}

/** Parts of a message a question may be alone in: its sentences, and the clauses of those. */
const PARTS = /[?!.;()\n\p{Extended_Pictographic}]+|:\s|,\s/u;

/** Of a message's parts, at most this many are tried: a long message is not a list of questions. */
const MAX_PARTS = 4;

/**
 * The answer found in one part of the message alone, when exactly one topic is found in its
 * parts; undefined when none is, or several different ones are (that is no one question).
 */
async function answerInPart<A extends Answer & { language: Language }>(
  request: BoundRequest,
  language: Language,
  answerIn: (request: BoundRequest, fallback: Language) => Promise<A>,
): Promise<A | undefined> {
  // Each part, and whether it is a question: what the message ends a part with holds a "?".
  const pieces = request.message.split(new RegExp(`(${PARTS.source})`, 'u'));
  const parts = pieces
    .flatMap((part, position) =>
      position % 2 === 0
        ? [{ part: part.trim(), asks: (pieces[position + 1] ?? '').includes('?') }]
        : [],
    )
    .filter(({ part }) => /\p{L}/u.test(part));
  if (parts.length < 2 || parts.length > MAX_PARTS) return undefined;
  // With a group's word mistyped too: "to com o rosto incahdo, da pra ir ai agr?"
  const corrected = words(normalizeText(request.message)).map((w) => spellGroupWord(w, language));
  const urgent = namesUrgency(queryTerms(corrected.join(' '), language));
  const named = new Set([...namesOf(request)].flatMap((word) => processWord(word, language) ?? []));
  const found: { answer: A; asks: boolean }[] = [];
  for (const { part, asks } of parts) {
    const plain = normalizeText(part);
    // "…a instalação, não a manutenção": what a part says is not asked is not answered; nor is
    // a part that only says when ("…de natal, dia 24, …"), which is about another part.
    if (NEGATION.test(plain) || onlySaysWhen(part, language)) continue;
    // A part that asks nothing is read only when it says more than a word ("…it really
    // hurts, can you see me today?" is not about what hurts).
    const terms = queryTerms(plain, language);
    if (!asks && terms.length < 2) continue;
    // Whether they take someone, asked of no one named ("não tenho CPF, só protocolo de refúgio.
    // Pode atender eu?"), or whether one may use something there, which names only the business
    // ("Informo que sou beneficiário do plano Odontoprev. Seria possível utilizá-lo nessa
    // clínica?"), is about what the other parts say. The business is read with its phrases:
    // "onde fica a clínica?" asks the address.
    if (terms.length > 0 && terms.every((term) => term === SERVING)) continue;
    const read = queryTerms(samePhrases(plain, language), language);
    const businessOnly = read.every((term) => term === SERVING || named.has(term));
    if (businessOnly && read.some((term) => named.has(term))) continue;
    const answer = await answerIn({ ...request, message: part }, language);
    if (answer.final) return undefined;
    // "tô com dor, dá pra ir aí agora?": the hours are not what a message of pain asks.
    if (
      answer.topic === 'hours' &&
      urgent &&
      !namesOpening({ plain: part, vocabulary: VOCABULARY[language] })
    )
      continue;
    // "vcs fazem tomografia? preço?": a price asked of nothing is about the other part.
    if (answer.list || !answersSomething(answer.topic)) continue;
    found.push({ answer, asks });
  }
  // What a question asks comes before what the message tells ("tem onde deixar o carro? vou
  // com as 2 crianças"); one topic found, or none.
  const asked = found.some(({ asks }) => asks) ? found.filter(({ asks }) => asks) : found;
  const topics = new Set(asked.map(({ answer }) => answer.topic));
  return topics.size === 1 ? asked[0]!.answer : undefined;
}

/**
 * The answer to the message without its words of a life told around it (Vocabulary.aside), when
 * it had some and what is left still asks something; undefined when that finds nothing to answer.
 */
async function answerWithoutAside<A extends Answer & { language: Language }>(
  request: BoundRequest,
  language: Language,
  answerIn: (request: BoundRequest, fallback: Language) => Promise<A>,
): Promise<A | undefined> {
  const { aside, reason } = VOCABULARY[language];
  const said = words(normalizeText(request.message));
  // The reason given after the question is the life told around it too.
  const because = said.findIndex((word, position) => position > 0 && reason.has(word));
  const kept = (because > 0 ? said.slice(0, because) : said).filter((word) => !aside.has(word));
  if (kept.length === said.length || queryTerms(kept.join(' '), language).length === 0)
    return undefined;
  const answer = await answerIn({ ...request, message: kept.join(' ') }, language);
  return answer.final || answer.list || !answersSomething(answer.topic) ? undefined : answer;
}

/**
 * A part that starts by saying no or without: "não a manutenção", "sem o implante", "not the
 * cleaning", "sin la corona".
 */
const NEGATION = /^(nao|nem|sem|exceto|not|no|nor|without|except|ni|sin|excepto)\b/;

/**
 * Whether a part of a message says nothing but a day, a time or a number. A part that names the
 * opening or the serving ("vocês estão abertos agora?") asks about the hours: it says more.
 */
function onlySaysWhen(part: string, language: Language): boolean {
  const vocabulary = VOCABULARY[language];
  const said = words(normalizeText(part));
  if (said.some((word) => vocabulary.openingHours.has(word) || vocabulary.serving.has(word)))
    return false;
  // How late asks the hours too: "e de noite vai até q horas?"
  if (asksHowLate(words(expandChatSpelling(said.join(' '), language)).join(' '))) return false;
  // "onde fica a clínica" names no time: the place words of hours questions are not enough.
  const when = (word: string) =>
    /^\d+$/.test(word) ||
    (isTime(word, vocabulary) && !vocabulary.hoursFiller.has(word)) ||
    vocabulary.holiday.has(word);
  return (
    said.some(when) &&
    said.every(
      (word) =>
        /^\d+$/.test(word) || processWord(word, language) === null || isTime(word, vocabulary),
    )
  );
}

/** Topics that answer something: not a refusal, the topics offered, a greeting or thanks. */
const answersSomething = (topic: string) =>
  !['refusal', 'topics', 'greeting', 'thanks'].includes(topic);

export function createBuiltinEngine(options: BuiltinEngineOptions = {}): AgentEngine {
  const answer = createBuiltinAnswerer(options);
  return {
    name: 'builtin',
    async *reply(request) {
      throwIfAborted(request.signal);
      const { text, topic } = await answer(request);
      if (topic === 'refusal') request.onUnknown?.();
      for (const piece of pieces(text)) {
        throwIfAborted(request.signal);
        yield piece;
        // Let the caller write each piece out before the next: the stream is a real one.
        await nextTurn();
      }
    },
  };
}

/**
 * An answer and its topic. `final` when no other reading of the message may answer it instead:
 * a business's agent refusing a diagnosis refuses it whatever part of the message is read alone.
 */
type Answer = {
  text: string;
  topic: string;
  final?: boolean;
  /** The whole catalogue, for a price asked of nothing named ("qual valor?"). */
  list?: boolean;
};

/** The topic of a knowledge or catalogue entry: its id without the language suffix. */
function topicOf(entry: KnowledgeEntry): string {
  return entry.id.endsWith(`.${entry.language}`)
    ? entry.id.slice(0, -entry.language.length - 1)
    : entry.id;
}

/** The share of a question's terms an index in another language must know, at least, to answer it. */
const UNDERSTOOD_SHARE = 0.5;

async function answerFor(
  request: BoundRequest,
  language: Language,
  prepared: Prepared,
  translate: (language: Language) => Translate,
  now: Date,
): Promise<Answer> {
  const { agent } = request;
  const { configuration } = agent;
  const t = translate(language);
  const vocabulary = VOCABULARY[language];
  // A question in a language the agent's knowledge is not written in is searched in the
  // knowledge's own: an English question to a Portuguese business meets its Portuguese texts on
  // the words they share and on the groups of ai.concepts.ts ("parking" is "estacionamento").
  const source = knowledgeLanguage(configuration.knowledge, language);
  const { catalogue, index } = await preparedFor(
    prepared,
    configuration,
    source,
    translate,
    agent.version,
  );
  const { capabilities } = configuration;

  const normalized = samePhrases(
    expandChatSpelling(withoutLongWords(normalizeText(request.message)), language),
    language,
  );
  const courtesy = stripCourtesy(normalized, vocabulary, agent.name);
  // The agent's own name says nothing about the question ("guia, como…").
  const ownName = processWord(agent.name, language);
  const plain = spelt(words(courtesy.rest), language, source, index).join(' ');
  const asked = termsAcross(plain, language, source, index).filter((term) => term !== ownName);
  // Across languages, a word the knowledge's language does not share ("nearby") says nothing
  // either way; but a question most of whose words it does not know is not about it.
  const known = source === language ? asked : asked.filter((term) => index.knows(term));
  // A word that says when, which the knowledge's language does not share, is no topic it
  // lacks: "could you squeeze me in today?" ("domingo" is a Portuguese word too).
  const when = new Set(
    words(plain)
      .filter((word) => isTime(word, vocabulary) && !isTime(word, VOCABULARY[source]))
      .map((word) => processWord(word, language)),
  );
  const weighed = asked.filter((term) => known.includes(term) || !when.has(term));
  const understood = known.length > weighed.length * UNDERSTOOD_SHARE;
  const turn: Turn = {
    request,
    language,
    text: courtesy.rest,
    plain,
    terms: understood ? known : asked,
    said: asked,
    index,
    catalogue,
    source,
    render: (...entries) => {
      if (source === language) return entries.map((entry) => renderEntry(entry, t)).join('\n\n');
      // An item is shown with its price written for the answer's language; the texts the owner
      // wrote stay in theirs, and the answer says so in the question's.
      // Made when shown, not with an index of their own: a few items, rarely asked this way.
      const shownItems = entries.some(isItem)
        ? catalogueEntries(configuration.catalogue, language, t)
        : [];
      const shown = entries.map((entry) => {
        const item = isItem(entry)
          ? shownItems.find((other) => topicOf(other) === topicOf(entry))
          : undefined;
        return renderEntry(item ?? entry, t);
      });
      const note = t('engine.writtenIn', { language: languageName(language, source) });
      return [note, ...shown].join('\n\n');
    },
    t,
    vocabulary,
    now,
  };
  const bare = asked.length === 0 && !/\d/.test(turn.text);
  // The business's and the agent's names: what a message may say without asking of them.
  const names = namesOf(request);
  const tells =
    !bare &&
    tellsOnly(turn, names, {
      thanked: courtesy.thanked || vocabulary.thanksWithin.test(courtesy.rest),
    });
  if ((bare || tells) && courtesy.thanked) return { text: t('engine.thanks'), topic: 'thanks' };
  // Thanks in the middle of what asks nothing the agent knows ("tô tremendo aqui kkk obg pela
  // paciência", "ele mandou agradecer"), or of what only tells ("perfeito, muito obrigada, vou
  // chamar vcs pra marcar!"): thanks.
  if (
    !courtesy.rest.includes('?') &&
    vocabulary.thanksWithin.test(courtesy.rest) &&
    (tells || asked.every((term) => !index.knows(term)))
  ) {
    return { text: t('engine.thanks'), topic: 'thanks' };
  }
  if ((bare || tells) && courtesy.greeted) {
    const text = withTopics(
      t('engine.greeting'),
      t('engine.forExample'),
      topics(turn, capabilities),
      t,
    );
    return { text, topic: 'greeting' };
  }

  // A business's agent is no doctor: it hands such a question over, however close its words are
  // to what it knows ("meu dente fica sensível com gelado, o que pode ser?").
  if (configuration.business && asksDiagnosis(turn)) {
    return { ...refusal(turn, capabilities), final: true };
  }
  // Nor a directory: "o telefone da Uniodonto" is not the business's own.
  const contactOf = configuration.business && vocabulary.contactOf.exec(plain)?.[1];
  if (contactOf && !vocabulary.ownReference.has(contactOf) && !names.has(contactOf))
    return { ...refusal(turn, capabilities), final: true };
  // Nor does it do what it never names: "vocês fazem selante nos dentinhos das crianças?" is not
  // about the children's care it knows.
  if (configuration.business && asksForUnknown(turn))
    return { ...refusal(turn, capabilities), final: true };
  // "quebrei um dente, consigo ser atendido hoje?" asks for an urgent visit, not the hours.
  const hours =
    configuration.business &&
    !(namesUrgency(turn.terms) && !namesOpening(turn)) &&
    hoursAnswer({ ...turn, business: configuration.business, names });
  if (hours) return { text: hours, topic: 'hours' };
  for (const skill of capabilities.skills) {
    const reply = await SKILLS[skill].answer(turn);
    if (reply === undefined) continue;
    return typeof reply === 'string' ? { text: reply, topic: skill } : reply;
  }
  if (bare) {
    return {
      text: withTopics('', t('engine.canHelpWith'), topics(turn, capabilities), t),
      topic: 'topics',
    };
  }
  const found = understood ? index.best(turn.terms, words(plain)) : undefined;
  // An item states its price: only for a question every word of which it has, as the catalogue
  // skill has it ("manutenção de aparelho auditivo" is not the braces' maintenance). What the
  // rest of the knowledge says of it may answer instead ("o canal vocês fazem com anestesia?").
  // Nor is an item named only by a word of its description ("los estéticos" is not the
  // restoration whose text says "estética"): it is named by its title or keywords.
  const match =
    found && isItem(found.entry) && (found.coverage < 1 || found.topicHits === 0)
      ? index.best(turn.terms, words(plain), (entry) => !isItem(entry))
      : found;
  if (match) return { text: turn.render(match.entry), topic: topicOf(match.entry) };
  const booking = understood ? bookingEntry(turn) : undefined;
  if (booking) return { text: turn.render(booking), topic: topicOf(booking) };
  return refusal(turn, capabilities);
}

/**
 * A question's search terms. Across languages, a word the knowledge's language writes the same
 * way and knows is read as the knowledge's own: "how much is root canal for molar tooth?" names
 * the "Tratamento de canal em molar" (as English, "molar" would not meet the Portuguese "mol").
 */
function termsAcross(
  plain: string,
  language: Language,
  source: Language,
  index: KnowledgeIndex,
): string[] {
  if (source === language) return queryTerms(plain, language);
  const terms = words(plain).flatMap((word) => {
    const term = processWord(word, language);
    if (term === null || isConcept(term) || index.knows(term)) return term === null ? [] : [term];
    // A word of one of the knowledge language's groups is its own way of saying ("pegam"), which
    // says the question may be in that language, not that the two share it.
    const own = processWord(word, source);
    return [own !== null && !isConcept(own) && index.knows(own) ? own : term];
  });
  return [...new Set(terms)];
}

/**
 * Words that ask something of a message with courtesy: those that ask or want
 * (Vocabulary.asking), a price, an offer, and the hours ("oi, vcs funcionam na véspera de natal"
 * asks them without a question mark).
 */
const askingWords = perLanguage((language) => {
  const vocabulary = VOCABULARY[language];
  return new Set([
    ...vocabulary.asking,
    ...vocabulary.price,
    ...vocabulary.pay,
    ...vocabulary.offer,
    ...vocabulary.openingHours,
    ...vocabulary.serving,
    ...vocabulary.holiday,
    ...vocabulary.weekdays.keys(),
  ]);
});

/**
 * Whether what a message says after its courtesy only tells, asking nothing: no part of it ends
 * with a question mark or says a word that asks (askingWords), and each part either says who
 * writes ("sou do RH de uma transportadora", "aqui é o senhor Hiroshi, tenho 72 anos") or only
 * chats and names nothing the agent knows but the business ("amigos da clínica", "hope you're
 * well"). A part that only chats ("tudo bem?") may ask. After thanks, a plan may name what the
 * agent knows ("obrigada, vou chamar vcs pra marcar!").
 */
function tellsOnly(
  { text, vocabulary, language, index }: Turn,
  names: ReadonlySet<string>,
  { thanked }: { thanked: boolean },
) {
  const pieces = text.split(new RegExp(`(${PARTS.source})`, 'u'));
  const asks = askingWords(language);
  const chat = (word: string) =>
    vocabulary.smallTalk.has(word) || names.has(word) || vocabulary.thanksWithin.test(word);
  let introduced = false;
  for (let position = 0; position < pieces.length; position += 2) {
    const said = words(pieces[position]!);
    if (said.length === 0) continue;
    // "gostaria de algumas informações": a wish for nothing named is chat too.
    const wished = said.filter((word) => !vocabulary.wish.has(word));
    if (wished.length > 0 && wished.every(chat)) continue;
    const part = said.join(' ');
    const asked = (pieces[position + 1] ?? '').includes('?');
    // After thanks, what one will do only tells: "brigada, vou passar tudo pra patroa".
    if (thanked && !asked && vocabulary.plan.test(part)) continue;
    if (
      asked ||
      said.some((word) => asks.has(word)) ||
      vocabulary.askTime.test(part) ||
      vocabulary.askDate.test(part) ||
      /\d\s*[-+*/x×÷^%]\s*\d/.test(pieces[position]!)
    )
      return false;
    introduced ||= part.search(vocabulary.introduction) === 0;
    if (introduced || thanked) continue;
    // When one comes names nothing asked: "tô indo pra capital semana que vem".
    const told = said.filter((word) => !names.has(word) && !isTime(word, vocabulary));
    const terms = queryTerms(told.join(' '), language);
    if (terms.some((term) => index.knows(term) || isConcept(term))) return false;
  }
  return true;
}

/**
 * Normalized words as the agent reads them: a word the knowledge does not have may be a slip in
 * one of a group's ("clariamento"), written as it sounds ("ciso", "ora", "aranca"), or two
 * letters swapped in one of the knowledge's own.
 */
function spelt(
  said: string[],
  language: Language,
  source: Language,
  index: KnowledgeIndex,
): string[] {
  const read = said.map((word) => {
    const term = processWord(word, language);
    if (term === null || isConcept(term) || index.knows(term)) return word;
    const group = spellGroupWord(word, language);
    if (group !== word) return group;
    return index.sounds.find(word) ?? knownSounds(language).find(word) ?? word;
  });
  return source === language ? index.correctSwaps(read) : read;
}

/**
 * Whether a question asks what is wrong or which medicine to take, or names a medicine the
 * agent's knowledge does not (what its owner wrote about one, it may quote).
 */
function asksDiagnosis({ plain, vocabulary, language, index }: Turn): boolean {
  if (vocabulary.diagnosis.test(plain)) return true;
  return plain.split(' ').some((word) => {
    if (!vocabulary.medicine.has(word)) return false;
    const term = processWord(word, language);
    return term === null || !index.knows(term);
  });
}

/**
 * Whether the question asks if the business does, offers or sells a thing (the first word after
 * such a verb that is not a small word) its knowledge, in the question's language, never names.
 */
function asksForUnknown({ text, vocabulary, language, index, source }: Turn): boolean {
  if (source !== language) return false;
  // Within a sentence: "quais serviços vocês oferecem? queria montar um cartaz" asks for no
  // "montar".
  return text
    .split(PARTS)
    .some((part) =>
      offersUnknown(spelt(words(part), language, source, index), vocabulary, language, index),
    );
}

/** Whether `said` (a sentence's words) offers a thing the agent's knowledge never names. */
function offersUnknown(
  said: string[],
  vocabulary: Vocabulary,
  language: Language,
  index: KnowledgeIndex,
): boolean {
  return said.some((word, position) => {
    if (!vocabulary.offer.has(word)) return false;
    const thing = said.slice(position + 1).find((next) => processWord(next, language) !== null);
    if (thing === undefined || isTime(thing, vocabulary) || /\d/.test(thing)) return false;
    const term = processWord(thing, language)!;
    return !isConcept(term) && !index.knows(term);
  });
}

const BOOKING = groupTerm('booking');
const SERVING = groupTerm('serving');
const URGENCY = new Set([groupTerm('emergency'), groupTerm('pain')]);

/** Whether search terms name an emergency or pain: a visit asked with them is an urgent one. */
const namesUrgency = (terms: readonly string[]) => terms.some((term) => URGENCY.has(term));

/** Whether a message names the opening hours themselves ("no horário de almoço", "abrem"). */
const namesOpening = ({ plain, vocabulary }: Pick<Turn, 'plain' | 'vocabulary'>) =>
  words(plain).some((word) => vocabulary.openingHours.has(word));

/**
 * The entry about booking, for a request to book something the agent knows ("quero marcar uma
 * limpeza pra semana que vem", "vc marca pra mim quinta às 15h?"): the rest of the message says
 * what and when, which is not what the answer is about. Only when the agent knows each thing
 * it names, or it names a day or a time: booking what it does not do is not its to answer.
 */
function bookingEntry({
  terms,
  plain,
  index,
  vocabulary,
  language,
}: Turn): KnowledgeEntry | undefined {
  if (!terms.includes(BOOKING)) return undefined;
  const said = plain.split(' ').filter((word) => {
    const term = processWord(word, language);
    return term !== null && term !== BOOKING && !index.knows(term) && !isTime(word, vocabulary);
  });
  if (said.length > 0) return undefined;
  const match = index.best([BOOKING]);
  return match && match.topicHits > 0 ? match.entry : undefined;
}

/** A word that says when: a day, a part of it, "amanhã", a time ("15h"). */
function isTime(word: string, vocabulary: Vocabulary): boolean {
  return /^\d{1,2}(h\d{0,2})?$/.test(word) || saysWhen(word, vocabulary);
}

/** The words the engine itself knows (its groups, and hours, price and catalogue words) by sound. */
const knownSounds = perLanguage((language) => {
  const sounds = new SoundsLike(language);
  const vocabulary = VOCABULARY[language];
  const sets = [
    vocabulary.openingHours,
    vocabulary.serving,
    vocabulary.clock,
    vocabulary.now,
    vocabulary.tomorrow,
    vocabulary.holiday,
    vocabulary.hoursFiller,
    vocabulary.price,
    vocabulary.pay,
    vocabulary.catalogue,
  ];
  for (const word of [...wordsOfGroups(language), ...sets.flatMap((set) => [...set])])
    sounds.add(word);
  for (const word of vocabulary.weekdays.keys()) sounds.add(word);
  return sounds;
});

/** The index and catalogue entries of an agent in one language, made once per configuration. */
function preparedFor(
  prepared: Prepared,
  configuration: BoundRequest['agent']['configuration'],
  language: Language,
  translate: (language: Language) => Translate,
  version: string | undefined,
) {
  return prepared.get(
    configuration,
    language,
    async () => {
      const items = catalogueEntries(configuration.catalogue, language, translate(language));
      return {
        catalogue: items,
        index: await indexFor([...configuration.knowledge, ...items], language),
      };
    },
    version,
  );
}

/** A language's name in another: "Portuguese" for pt-BR in en-US. */
const languageNames = perLanguage(
  (language) => new Intl.DisplayNames(language, { type: 'language', fallback: 'code' }),
);
function languageName(inLanguage: Language, language: Language): string {
  // The language without its region: "Portuguese", not "Brazilian Portuguese".
  return languageNames(inLanguage).of(language.slice(0, 2)) ?? language;
}

/** The agent's and its business's names as words ("clinica sorriso odontologia"). */
function namesOf({ agent }: BoundRequest): ReadonlySet<string> {
  const names = [agent.name.replaceAll('-', ' '), agent.configuration.business?.name ?? ''];
  return new Set(names.flatMap((name) => words(normalizeText(name))));
}

/**
 * The honest answer when nothing fits: that it was not found, then what the agent can do. It does
 * not quote the question back: the words it searched for, without the rest, read as nonsense
 * ("Não encontrei “pessoa recebe vai mandou”").
 */
function refusal(turn: Turn, capabilities: AgentCapabilities): Answer {
  const { t } = turn;
  const lead = capabilities.fallback === 'cannotYet' ? t('engine.cannotYet') : t('engine.notFound');
  const intro =
    capabilities.fallback === 'cannotYet' ? t('engine.forNow') : t('engine.canHelpWith');
  return { text: withTopics(lead, intro, topics(turn, capabilities), t), topic: 'refusal' };
}

/**
 * Removes greetings, thanks and "please" ("Oi guia, tudo bem? Como…", "3200 / 4 pf") so the
 * question behind them is answered, and says which were there. What is left of a greeting or
 * thanks that only chats ("bom dia!! tudo certo por aí?", "obrigadão, vc ajudou mt") goes too:
 * the message asks nothing.
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
    const please = greeting || thanks ? null : vocabulary.please.exec(rest);
    const named = (greeted || thanked) && !greeting && !thanks && !please ? name.exec(rest) : null;
    const match = greeting ?? thanks ?? please ?? named;
    if (!match || match[0].length === 0) break;
    greeted ||= greeting !== null;
    thanked ||= thanks !== null;
    rest = rest.slice(match[0].length);
  }
  // Thanks or "please" after the question ("como saio? obg", "3200 / 4 pf") go too.
  for (;;) {
    const trailing = trailingCourtesy(vocabulary).exec(rest);
    if (!trailing || trailing.index === 0) break;
    thanked ||= vocabulary.thanks.test(rest.slice(trailing.index).replace(/^[^\p{L}\p{N}]+/u, ''));
    rest = rest.slice(0, trailing.index);
  }
  if (
    (greeted || thanked) &&
    words(rest.replace(vocabulary.introduction, ' ')).every((word) =>
      vocabulary.smallTalk.has(word),
    )
  )
    rest = '';
  return { rest, greeted, thanked };
}

const trailingCourtesyPatterns = new WeakMap<Vocabulary, RegExp>();

/** The vocabulary's thanks or "please" as the end of a message, after a break (space or punctuation). */
function trailingCourtesy(vocabulary: Vocabulary): RegExp {
  let pattern = trailingCourtesyPatterns.get(vocabulary);
  if (!pattern) {
    const courtesy = [vocabulary.thanks, vocabulary.please]
      .map((regexp) => `(?:${regexp.source.replace(/^\^/, '')})`)
      .join('|');
    pattern = new RegExp(`[^\\p{L}\\p{N}]+(?:${courtesy})[^\\p{L}\\p{N}]*$`, 'u');
    trailingCourtesyPatterns.set(vocabulary, pattern);
  }
  return pattern;
}

// Skills ------------------------------------------------------------------------------------

const resultFormat = perLanguage(
  (language) => new Intl.NumberFormat(language, { maximumFractionDigits: 10 }),
);

// Date and time formats per language and zone: Intl formatters cost far more to make than to use.
const dateTimeFormats = new Map<
  string,
  { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat; zone: Intl.DateTimeFormat }
>();

function dateTimeFormat(language: Language, timeZone: string) {
  const key = `${language} ${timeZone}`;
  let formats = dateTimeFormats.get(key);
  if (!formats) {
    formats = {
      date: new Intl.DateTimeFormat(language, { timeZone, dateStyle: 'full' }),
      time: new Intl.DateTimeFormat(language, { timeZone, timeStyle: 'short' }),
      zone: new Intl.DateTimeFormat(language, { timeZone, timeZoneName: 'long' }),
    };
    dateTimeFormats.set(key, formats);
  }
  return formats;
}

/** The zone's name at that moment, in the language: "Horário Padrão de Brasília". */
const zoneName = (format: Intl.DateTimeFormat, now: Date) =>
  format.formatToParts(now).find((part) => part.type === 'timeZoneName')?.value ?? '';

const calculation: Skill = ({ text, language, t }) => {
  const result = calculationIn(text, language);
  if (!result) return undefined;
  if (!result.ok) {
    return result.error === 'division-by-zero'
      ? t('engine.calculation.divisionByZero')
      : t('engine.calculation.notFinite');
  }
  return `${result.shown} = **${resultFormat(language).format(result.value)}**`;
};

const dateTime: Skill = ({ plain, vocabulary, language, t, now, request }) => {
  const asksTime = vocabulary.askTime.test(plain);
  if (!asksTime && !vocabulary.askDate.test(plain)) return undefined;
  // The user's zone (the web app sends the browser's), else the interface language's default.
  const timeZone = request.timeZone ?? DEFAULT_TIME_ZONES[request.language];
  const formats = dateTimeFormat(language, timeZone);
  const date = formats.date.format(now);
  const zone = zoneName(formats.zone, now);
  if (!asksTime) return t('engine.dateTime.today', { date, zone });
  return t('engine.dateTime.now', { time: formats.time.format(now), date, zone });
};

type FactTopic = 'users' | 'conversations' | 'messages' | 'newest' | 'database' | 'mail';
type Period = 'total' | 'today' | 'week';

/**
 * The live figures a question asks for: counts need a "how many" word, states a "status" one,
 * the newest accounts a "newest" word with an accounts one; and the period the counts cover.
 */
function factTopicsIn(
  plain: string,
  vocabulary: Vocabulary,
  isTopicWord: (word: string) => boolean,
): { topics: FactTopic[]; period: Period | undefined } {
  const said = new Set(plain.split(' '));
  const has = (vocabularySet: ReadonlySet<string>) =>
    [...said].some((word) => vocabularySet.has(word));
  const counting = has(vocabulary.quantity);
  const checking = has(vocabulary.state);
  const period: Period | undefined = has(vocabulary.week)
    ? 'week'
    : has(vocabulary.today)
      ? 'today'
      : has(vocabulary.total)
        ? 'total'
        : undefined;
  const topics: FactTopic[] = [];
  if (!counting && has(vocabulary.newest) && has(vocabulary.users)) topics.push('newest');
  if (counting && has(vocabulary.users)) topics.push('users');
  if (counting && has(vocabulary.conversations)) topics.push('conversations');
  if (counting && has(vocabulary.messages)) topics.push('messages');
  if ((checking || counting) && has(vocabulary.database)) topics.push('database');
  if ((checking || counting) && has(vocabulary.mail)) topics.push('mail');
  // "status do sistema" is the overview; "where is the system monitor" is about a page.
  const aboutOverview = [...said].every(
    (word) => vocabulary.overview.has(word) || vocabulary.state.has(word) || !isTopicWord(word),
  );
  if (topics.length === 0 && has(vocabulary.overview) && aboutOverview) {
    return { topics: ['users', 'conversations', 'messages', 'database', 'mail'], period };
  }
  return { topics, period };
}

const COUNT_KEYS = {
  users: { total: 'users', today: 'usersToday', week: 'usersWeek' },
  conversations: {
    total: 'conversationsTotal',
    today: 'conversationsToday',
    week: 'conversationsWeek',
  },
  messages: { total: 'messagesTotal', today: 'messagesToday', week: 'messagesWeek' },
} as const;

/**
 * One figure as a sentence; counts take the language's plural rules (i18next's `count`). Without
 * a period asked, accounts are counted in all and conversations and messages today, as the
 * overview always did.
 */
function factLines(
  topic: FactTopic,
  period: Period | undefined,
  facts: LiveFacts,
  language: Language,
  t: Translate,
): string[] {
  switch (topic) {
    case 'users':
    case 'conversations':
    case 'messages': {
      const chosen = period ?? (topic === 'users' ? 'total' : 'today');
      const count = facts.activity[chosen][topic];
      return [t(`engine.facts.${COUNT_KEYS[topic][chosen]}`, { count })];
    }
    case 'newest': {
      if (facts.newestUsers.length === 0) return [t('engine.facts.newestNone')];
      const format = dateTimeFormat(language, facts.timeZone).date;
      const list = facts.newestUsers.map(
        (user) => `  - ${user.name} (${format.format(user.createdAt)})`,
      );
      return [`${t('engine.facts.newest')}\n${list.join('\n')}`];
    }
    case 'database':
      return [
        t('engine.facts.database', {
          kind: t(`engine.facts.${facts.database.kind}`),
          state: t(facts.database.ok ? 'engine.facts.working' : 'engine.facts.notResponding'),
        }),
      ];
    case 'mail':
      return [t(facts.mail === 'smtp' ? 'engine.facts.mailSmtp' : 'engine.facts.mailLog')];
  }
}

const liveFacts: Skill = async ({ plain, vocabulary, language, t, request }) => {
  const { topics, period } = factTopicsIn(
    plain,
    vocabulary,
    (word) => processWord(word, language) !== null,
  );
  if (topics.length === 0) return undefined;
  if (!request.facts) return t('engine.facts.adminsOnly');
  let facts: LiveFacts;
  try {
    facts = await request.facts();
  } catch {
    // The figures come from the database; if it is down the admin still gets an honest answer.
    return t('engine.facts.unavailable');
  }
  const lines = topics.flatMap((topic) => factLines(topic, period, facts, language, t));
  return lines.length === 1 ? lines[0] : lines.map((line) => `- ${line}`).join('\n');
};

/**
 * "How much is X" and "what do you offer" are about the catalogue, so price and catalogue words
 * are set aside and the rest names the product; with nothing left, the list of items.
 */
const catalogue: Skill = (turn) => {
  const { plain, said: terms, vocabulary, language, index, catalogue, t } = turn;
  if (catalogue.length === 0) return undefined;
  const said = plain.split(' ');
  const namesPrice = said.some((word) => vocabulary.price.has(word));
  const asksPrice = namesPrice || said.some((word) => vocabulary.pay.has(word));
  const asksList = said.some((word) => vocabulary.catalogue.has(word));
  if (!asksPrice && !asksList) return undefined;
  const setAside = catalogueTerms(language);
  const excluded = termsAfter(said, vocabulary.without, language);
  const only = termsAfter(said, vocabulary.only, language);
  const asked = terms.filter((term) => !setAside.has(term) && !excluded.has(term));
  if (asked.length === 0) {
    const list = catalogue.map((entry) => `- ${entry.title}`).join('\n');
    const text = `${t('engine.catalogue.intro')}\n\n${list}\n\n${t('engine.catalogue.outro')}`;
    return { text, topic: 'catalogue', list: true };
  }
  const product =
    index.best(asked, [], isItem)?.coverage === 1
      ? asked
      : namingTerms(asked, index, catalogue.length);
  // A price is stated only for an item that every word of the product asked about names:
  // "plano básico" must not get the price of another plan because both say "plano". A price
  // asked is looked for among the items first: "quanto custa um implante?" is not "quanto tempo
  // demora um implante?".
  // "a extração que não precisa de cirurgia" is not the one whose text says "cirurgia".
  // An entry that says it has no such thing ("extração que não exige cirurgia") is not one.
  const unwanted = new Set(
    excluded.size > 0
      ? index
          .rank([...excluded])
          .filter(({ entry, terms }) => {
            const denied = termsAfter(
              words(`${entry.title} ${entry.content}`),
              VOCABULARY[turn.source].without,
              turn.source,
            );
            return !terms.every((term) => denied.has(term));
          })
          .map((other) => other.entry)
      : [],
  );
  const wanted = (entry: KnowledgeEntry) => isItem(entry) && !unwanted.has(entry);
  const itemMatch = index.best(product, [], wanted);
  const match = asksPrice && itemMatch?.coverage === 1 ? itemMatch : index.best(product);
  const matchIsItem = match ? isItem(match.entry) : false;
  if (match && matchIsItem && match.coverage === 1) {
    // "quanto custa o plano?" names two plans equally: each with its own price, not one of them.
    const tied = index
      .rank(product)
      .filter(
        (other) =>
          wanted(other.entry) && other.coverage === 1 && other.topicHits === match.topicHits,
      );
    if (tied.length > 1) {
      const text = turn.render(...tied.slice(0, SUGGESTIONS).map((other) => other.entry));
      return { text, topic: 'catalogue' };
    }
  }
  // "a coroa, sem o implante" and "só a coroa" are not the implant with a crown: an item is not
  // sold in parts, and no other reading of the message may find it.
  const title = match && matchIsItem ? queryTerms(match.entry.title, turn.source) : [];
  // The sentence that says "só" is the one that says what is asked: "qto é só a coroa? o
  // implante eu já tenho".
  const onlySaid = turn.text
    .split(PARTS)
    .find((part) => words(part).some((word) => vocabulary.only.has(word)));
  const onlyAsked = onlySaid ? queryTerms(onlySaid, language) : [];
  const onlyPart =
    title.some((term) => only.has(term)) &&
    title.some((term) => !onlyAsked.includes(term) && !setAside.has(term));
  if (title.some((term) => excluded.has(term)) || onlyPart) {
    return { ...refusal(turn, turn.request.agent.configuration.capabilities), final: true };
  }
  // A price asked, answered by a text that says nothing of prices ("quanto é a mensalidade do
  // plano odontoprev?" and the answer that the plan is accepted), is not answered by it.
  const priceless = match && !matchIsItem && namesPrice && !saysPrices(match.entry, turn.source);
  if (match && !priceless && (!matchIsItem || match.coverage === 1)) {
    return { text: turn.render(match.entry), topic: topicOf(match.entry) };
  }
  if (!asksPrice) return undefined;
  // A price asked with more said around it ("o dentista falou que preciso tratar o canal do
  // molar, qual o valor?"): the item the message names.
  const named = namedItems(turn, wanted);
  if (named.length > 0) {
    const text = turn.render(...named.slice(0, SUGGESTIONS));
    return { text, topic: named.length === 1 ? topicOf(named[0]!) : 'catalogue' };
  }
  // A price asked of something not sold: never another item's price.
  return refusal(turn, turn.request.agent.configuration.capabilities);
};

/**
 * The items a message asking a price names, whatever else it says: an item is named when the
 * message says the first word of its name (the thing: "Tratamento" de canal, "Implante" com
 * coroa) and half of its name's words or more. The one naming most of its name wins, then the one
 * whose text has most of the message's words ("clareamento feito no consultório" is the one done
 * there). An item is not named when a word the agent does not know stands next to one of its
 * name's words ("faceta de porcelana", "aparelho auditivo", "clareamento interno"): that word
 * names something else. A verb does not ("colocar implante", "tratar o canal").
 */
function namedItems(turn: Turn, allowed: (entry: KnowledgeEntry) => boolean): KnowledgeEntry[] {
  const { text, language, source, catalogue } = turn;
  // Each part of the message as its words, with the term of each that names something.
  // Single letters ("raio x") are no words here: what stands next to "raio" is what follows "x".
  const parts = text.split(PARTS).map((part) =>
    words(part)
      .filter((word) => word.length > 1)
      .map((word) => {
        const term = processWord(word, language);
        return { word, term: term === null || asksOnly(word, turn.vocabulary) ? null : term };
      }),
  );
  const said = new Set(parts.flat().flatMap(({ term }) => (term === null ? [] : [term])));
  // As search does: a word said names a term it is the start of ("trat" of "tratamento").
  const says = (term: string) =>
    said.has(term) ||
    (!isConcept(term) &&
      [...said].some((other) => other.length >= 4 && !isConcept(other) && term.startsWith(other)));
  const scored = catalogue.flatMap((item) => {
    if (!allowed(item)) return [];
    const title = queryTerms(item.title, source);
    const named = title.filter(says);
    // The thing is the first word of the name that is not a word of any catalogue: "canal" in
    // "Tratamento de canal em molar".
    const thing = title.find((term) => !catalogueTerms(source).has(term)) ?? title[0];
    if (thing === undefined || !says(thing) || named.length * 2 < title.length) return [];
    // An unknown word next to its name's ("faceta de porcelana"), or closely after it ("…do
    // aparelho estético de safira", "extração de siso a laser com sedação"), says the message
    // is about another thing, or another price.
    const blocked = nextToUnknown(parts, named, turn) || unknownAfter(parts, named, turn);
    const text = `${item.title} ${item.content} ${item.keywords.join(' ')}`;
    const known = new Set(queryTerms(text, source));
    const shared = [...said].filter((term) => known.has(term)).length;
    return [{ item, share: named.length / title.length, shared, blocked }];
  });
  // "a diferença de preço do clareamento de consultório pro de casa": each one named.
  if (turn.plain.split(' ').some((word) => turn.vocabulary.compare.has(word))) {
    return scored.filter((other) => !other.blocked).map((other) => other.item);
  }
  const best = scored.reduce<(typeof scored)[number] | undefined>(
    (a, b) => (!a || b.share > a.share || (b.share === a.share && b.shared > a.shared) ? b : a),
    undefined,
  );
  // The item named best is the one asked, or none: when it is stopped, a lesser one is no answer.
  const tied = best
    ? scored.filter((other) => other.share === best.share && other.shared === best.shared)
    : [];
  if (tied.some((other) => other.blocked)) return [];
  return tied.map((other) => other.item);
}

/** Words that ask ("quanto", "preço", "só", "sem"), which name no product. */
function asksOnly(word: string, vocabulary: Vocabulary): boolean {
  return (
    vocabulary.price.has(word) ||
    vocabulary.pay.has(word) ||
    vocabulary.catalogue.has(word) ||
    vocabulary.only.has(word) ||
    vocabulary.without.has(word)
  );
}

/**
 * Whether a word the agent does not know stands next to one of `named` in a part of the message:
 * right before or after it, or across "de" ("faceta de porcelana").
 */
function nextToUnknown(parts: SaidWord[][], named: string[], { language, index }: Turn): boolean {
  const unknown = (near: SaidWord | undefined) =>
    near !== undefined && namesOther(near, language, index);
  return parts.some((part) =>
    part.some(({ term }, position) => {
      if (term === null || !named.includes(term)) return false;
      const before = part[position - 1];
      const after = part[position + 1];
      // Across "de" too: "faceta de porcelana", "restauração de amálgama". ("Raio x da boca
      // toda", the panoramic, is refused with them: a price it is not sure of is not stated.)
      return (
        unknown(before) ||
        unknown(after) ||
        (before !== undefined && CONNECTORS.has(before.word) && unknown(part[position - 2])) ||
        (after !== undefined && CONNECTORS.has(after.word) && unknown(part[position + 2]))
      );
    }),
  );
}

/** How many words after an item's name may still say which one it is. */
const NAME_WINDOW = 3;

/** Whether a word the agent does not know (no verb) follows one of `named` closely in a part. */
function unknownAfter(parts: SaidWord[][], named: string[], { language, index }: Turn): boolean {
  return parts.some((part) =>
    part.some(({ term }, position) => {
      if (term === null || !named.includes(term)) return false;
      return part
        .slice(position + 1, position + 1 + NAME_WINDOW)
        .some((near) => namesOther(near, language, index));
    }),
  );
}

/** A word of a message, and its term when it names something (see namedItems). */
type SaidWord = { word: string; term: string | null };

/**
 * Whether a word names something the agent does not know: a term no entry has, not a number,
 * nor a verb (which says what is done, not which thing).
 */
function namesOther({ word, term }: SaidWord, language: Language, index: KnowledgeIndex): boolean {
  return (
    term !== null &&
    !index.knows(term) &&
    !isConcept(term) &&
    !/\d/.test(word) &&
    !VERB.get(language)!.test(word)
  );
}

/** Words that join a thing to what it is made of or for: "faceta de porcelana". */
const CONNECTORS = new Set(['de', 'da', 'do', 'das', 'dos', 'of', 'del']);

/**
 * A word that reads as a verb or a participle ("colocar", "tratei", "quebrado", "pulling"): it
 * says what is done, not which thing. Only an unknown word that is no verb stops an item.
 */
const VERB = new Map<Language, RegExp>([
  ['pt-BR', /(ar|er|ir|ando|endo|indo|ado|ada|ido|ida|ei|ou|am|em|ava|ia)$/],
  ['en-US', /(ing|ed)$/],
  ['es-ES', /(ar|er|ir|ando|iendo|ado|ada|ido|ida)$/],
]);

const isItem = (entry: KnowledgeEntry) => entry.id.startsWith('catalogue.');

/** Whether an entry speaks of prices: an amount, or a price word of its language. */
function saysPrices(entry: KnowledgeEntry, language: Language): boolean {
  const { price, pay } = VOCABULARY[language];
  return (
    /(R\$|\$|€)\s?\d|\d\s?(R\$|€)|\d+\s?x\b/i.test(entry.content) ||
    words(`${entry.title} ${entry.content}`).some((word) => price.has(word) || pay.has(word))
  );
}

/** The term of the first word with one after each of `said`'s words in `marks` ("sem", "só"). */
function termsAfter(said: string[], marks: ReadonlySet<string>, language: Language): Set<string> {
  const after = new Set<string>();
  said.forEach((word, position) => {
    if (!marks.has(word)) return;
    for (const next of said.slice(position + 1)) {
      const term = processWord(next, language);
      if (term === null) continue;
      after.add(term);
      break;
    }
  });
  return after;
}

/**
 * Of the words that name the product asked about, those that tell an item from the others: a
 * word most items have (their unit, "limpeza nos dentes" of items sold "por dente") says
 * nothing of which one. A word no item has stays: "faceta de porcelana" is not the implant with
 * a porcelain crown.
 */
function namingTerms(asked: string[], index: KnowledgeIndex, items: number): string[] {
  const itemsWith = new Map<string, number>();
  for (const match of index.rank(asked)) {
    if (!isItem(match.entry)) continue;
    for (const term of match.terms) itemsWith.set(term, (itemsWith.get(term) ?? 0) + 1);
  }
  const naming = asked.filter(
    (term) => (itemsWith.get(term) ?? 0) <= Math.max(2, items * GENERIC_SHARE),
  );
  return naming.length > 0 ? naming : asked;
}

/** A word more than this share of the catalogue's items have is its common vocabulary. */
const GENERIC_SHARE = 0.4;

/** The price and catalogue words as search terms, which catalogue sets aside. */
const catalogueTerms = perLanguage(
  (language) =>
    new Set(
      [
        ...VOCABULARY[language].price,
        ...VOCABULARY[language].pay,
        ...VOCABULARY[language].catalogue,
      ].map((word) => processWord(word, language)),
    ),
);

/**
 * A phone number in a message that is not a send request (those the WhatsApp feature answers
 * before any engine: see whatsapp.relay.ts) is a try at one: how to write it.
 */
const delivery: Skill = ({ request, t }) =>
  /\+?\d[\d\s().-]{7,}\d/.test(request.message) ? t('engine.delivery.how') : undefined;

/**
 * Each skill a configuration can name: how it answers, and what it offers (`engine.abilities.*`)
 * when the agent suggests topics. A Record over the shared list, so that a skill added there is
 * a type error here until the engine can do it.
 */
const SKILLS: Record<AgentSkill, { answer: Skill; abilities: readonly string[] }> = {
  liveFacts: { answer: liveFacts, abilities: ['counts', 'status'] },
  calculation: { answer: calculation, abilities: ['calculation'] },
  dateTime: { answer: dateTime, abilities: ['dateTime'] },
  catalogue: { answer: catalogue, abilities: ['catalogue'] },
  delivery: { answer: delivery, abilities: [] },
};

// Rendering ---------------------------------------------------------------------------------

function renderEntry(entry: KnowledgeEntry, t: Translate): string {
  // A passage of a document says which: the owner wrote the document, not the engine.
  const content = entry.source
    ? `${t('engine.fromDocument', { name: entry.source })} ${entry.content}`
    : entry.content;
  const parts = [`**${entry.title}**`, content];
  if (entry.link) parts.push(`${t('engine.page')} [${entry.link}](${entry.link})`);
  return parts.join('\n\n');
}

/** What the agent can do: its skills' abilities first, then the first topics it knows. */
function topics(turn: Turn, capabilities: AgentCapabilities): string[] {
  const abilities = capabilities.skills.flatMap((skill) =>
    SKILLS[skill].abilities.map((ability) => turn.t(`engine.abilities.${ability}`)),
  );
  return [...abilities, ...turn.index.entries.map((entry) => entry.title)].slice(0, SUGGESTIONS);
}

/** "lead intro" and the topics as a list; without topics, the lead alone (or "not found"). */
function withTopics(lead: string, intro: string, list: string[], t: Translate): string {
  if (list.length === 0) return lead || t('engine.notFound');
  const heading = lead ? `${lead} ${intro}` : intro;
  return `${heading}\n${list.map((topic) => `- ${topic}`).join('\n')}`;
}

/** Cuts a reply to the agent's maximum length at a word boundary. */
function limitLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = sliceWhole(text, max - 1);
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
