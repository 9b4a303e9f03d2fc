import fs from 'node:fs';
import path from 'node:path';
import {
  myAgentInputSchema,
  WEB_PAGES,
  type AgentConfiguration,
  type Language,
  type MyAgentContent,
} from '@contrateia/shared';
import { loadSeededAgents } from '../src/features/agents/agents.seed';
import { configurationOf, slugOf } from '../src/features/agents/my-agents';
import { createBuiltinAnswerer, type BuiltinAnswer } from '../src/features/ai/ai.builtin';
import type { LiveFacts } from '../src/features/ai/ai.service';
import { TEST_SET, type TestCase } from '../src/features/ai/ai.test-set';
import { BUSINESS_TEST_SET, type BusinessTestCase } from './business-test-set';

// Scores the builtin engine on a test set against the data of the agents it is asked: the three
// figures it has targets for, in-scope questions answered on topic in the question's language (at
// least 90 %), out-of-scope ones refused honestly (all) and wrong facts stated (none). Two sets:
// the seeded agents' (evaluateEngine, ai.test-set.test.ts) and an account's own agent made from
// the example business (evaluateBusinessAgent, my-agents.engine.test.ts); both in `npm run bench`.

/** The figures administrador is given in the evaluation; any other number it states is wrong. */
export const EVALUATION_FACTS: LiveFacts = {
  activity: {
    total: { users: 1234, conversations: 5678, messages: 91011 },
    today: { users: 12, conversations: 56, messages: 789 },
    week: { users: 98, conversations: 345, messages: 4321 },
  },
  newestUsers: [
    { name: 'Maria Souza', createdAt: new Date('2026-03-14T12:00:00Z') },
    { name: 'John Smith', createdAt: new Date('2026-03-13T09:30:00Z') },
  ],
  timeZone: 'America/Sao_Paulo',
  database: { kind: 'pglite', ok: true },
  mail: 'log',
};

export type CaseResult<Case = TestCase> = Case & {
  answer: BuiltinAnswer;
  /** In scope: answered on the expected topic, in the expected language. Out: refused in it. */
  passed: boolean;
  /** What the reply states that the agent's data does not hold. */
  wrongFacts: string[];
};

export type Evaluation<Case = TestCase> = {
  results: CaseResult<Case>[];
  inScope: { total: number; onTopic: number; share: number };
  outOfScope: { total: number; refused: number; share: number };
  wrongFacts: number;
};

const moneyFormats = new Map<string, Intl.NumberFormat>();
function money(language: Language, currency: string, amount: number): string {
  const key = `${language} ${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
    });
    moneyFormats.set(key, format);
  }
  return format.format(amount).replace(/\s/g, ' ');
}

/** Paths in a reply: Markdown link targets and paths written in the text. */
function pathsIn(text: string): string[] {
  return text.match(/(?<=^|[\s(*[])\/[a-z][a-z0-9-]*/g) ?? [];
}

/**
 * The prices a reply states that are wrong for the question of `topic`. Each amount stands in the
 * block of one item (its **title** first) and is that item's price; a question about one item gets
 * no other item's price, and a refusal none at all.
 */
function pricesIn(
  topic: string,
  answer: BuiltinAnswer,
  configuration: AgentConfiguration,
): string[] {
  const wrong: string[] = [];
  const catalogue = configuration.catalogue;
  for (const block of answer.text.split(/\n\n(?=\*\*)/)) {
    // "R$ 180,00" in Portuguese and English, "180,00 R$" in Spanish.
    const amounts = (block.match(/R\$\s?\d[\d.,]*|\d[\d.,]*\s?R\$/g) ?? []).map((a) =>
      a.replace(/\s/g, ' '),
    );
    if (amounts.length === 0) continue;
    const title = /^\*\*(.+?)\*\*/.exec(block)?.[1];
    const item = catalogue?.items.find((i) => i.name[answer.language] === title);
    for (const amount of amounts) {
      if (!item || !catalogue) wrong.push(`states ${amount} outside any item`);
      else if (amount !== money(answer.language, catalogue.currency, item.price))
        wrong.push(`states ${amount} for ${item.id}`);
      else if (topic === 'refusal') wrong.push(`states ${amount} instead of refusing`);
      else if (topic.startsWith('catalogue.') && topic !== `catalogue.${item.id}`)
        wrong.push(`states ${item.id}'s price for ${topic}`);
    }
  }
  return wrong;
}

/** Everything the reply states that the agent's data does not support. */
function wrongFactsIn(
  testCase: TestCase,
  answer: BuiltinAnswer,
  configuration: AgentConfiguration,
): string[] {
  const wrong: string[] = [];
  const { text } = answer;
  for (const path of pathsIn(text)) {
    if (!WEB_PAGES.includes(path)) wrong.push(`links to ${path}, which is no page`);
  }
  wrong.push(...pricesIn(testCase.topic, answer, configuration));
  if (answer.topic === 'calculation' && testCase.value !== undefined) {
    const result = new Intl.NumberFormat(answer.language, { maximumFractionDigits: 10 }).format(
      testCase.value,
    );
    if (!text.includes(`**${result}**`)) wrong.push(`calculates other than ${result}`);
  }
  if (answer.topic === 'liveFacts') {
    const { total, today, week } = EVALUATION_FACTS.activity;
    const known = new Set(
      [total, today, week].flatMap((counts) => Object.values(counts)).map(String),
    );
    // The dates of the newest accounts are not counts: set them aside.
    const counted = text.replace(/\(.*?\)/g, '');
    for (const figure of counted.match(/\d[\d.,]*\d|\d/g) ?? []) {
      const plain = figure.replace(/[.,]/g, '');
      if (!known.has(plain)) wrong.push(`states the figure ${figure}`);
    }
  }
  return wrong;
}

/** Runs every case of the test set (or `cases`) through the builtin engine and scores it. */
export async function evaluateEngine(cases: readonly TestCase[] = TEST_SET): Promise<Evaluation> {
  const agents = new Map(loadSeededAgents().map((agent) => [agent.name, agent]));
  // A fixed clock: the date and time answers do not depend on when the test runs.
  const answer = createBuiltinAnswerer({ now: () => new Date('2026-03-14T15:09:26Z') });
  const results: CaseResult[] = [];
  for (const testCase of cases) {
    const agent = agents.get(testCase.agent);
    if (!agent) throw new Error(`no seeded agent ${testCase.agent}`);
    const { configuration } = agent;
    const reply = await answer({
      agent: { name: agent.name, configuration },
      message: testCase.question,
      language: testCase.ui,
      facts: async () => EVALUATION_FACTS,
    });
    const passed = reply.topic === testCase.topic && reply.language === testCase.language;
    results.push({
      ...testCase,
      answer: reply,
      passed,
      wrongFacts: wrongFactsIn(testCase, reply, configuration),
    });
  }
  return scored(results);
}

/** The three figures of a run: on topic in scope, refused out of it, and wrong facts in all. */
function scored<Case extends { topic: string }>(results: CaseResult<Case>[]): Evaluation<Case> {
  const inScope = results.filter((r) => r.topic !== 'refusal');
  const outOfScope = results.filter((r) => r.topic === 'refusal');
  const share = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);
  const onTopic = inScope.filter((r) => r.passed).length;
  const refused = outOfScope.filter((r) => r.passed).length;
  return {
    results,
    inScope: { total: inScope.length, onTopic, share: share(onTopic, inScope.length) },
    outOfScope: { total: outOfScope.length, refused, share: share(refused, outOfScope.length) },
    wrongFacts: results.reduce((sum, r) => sum + r.wrongFacts.length, 0),
  };
}

// An account's own agent -------------------------------------------------------------------------

/**
 * The example business as the server stores it: parsed with the API's schema (so that its
 * defaults apply), in Portuguese, the language its owner writes in.
 */
export function loadExampleBusiness(): MyAgentContent {
  const file = path.resolve(import.meta.dirname, 'examples/clinica-sorriso.json');
  return myAgentInputSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/**
 * The clinic's clock in the evaluation: a Tuesday, 10:00 in São Paulo, inside the morning's
 * opening, so that "are you open now?" has one right answer whenever the test runs.
 */
export const BUSINESS_EVALUATION_NOW = new Date('2026-03-17T13:00:00Z');

/**
 * What an English or Spanish reply from Portuguese knowledge must say: that the
 * details are in Portuguese, in the question's language.
 */
const SAYS_PORTUGUESE: Partial<Record<Language, RegExp>> = {
  'en-US': /\bportuguese\b/i,
  'es-ES': /\bportugu[eé]s\b/i,
};

/** Topics answered by quoting the owner's Portuguese text (hours and prices are data). */
const quotesKnowledge = (topic: string) => topic === 'business' || /^faq-\d+$/.test(topic);

/** "8:00", "13h", "8h30", "1:00 PM", "9am": a time of day in a reply, and its minute of the day. */
const TIME_OF_DAY =
  /\b(\d{1,2})(?::(\d{2})|h(\d{2})?\b|(?=\s?[ap]\.?m\b))(?:\s?([ap])\.?m\.?(?!\w))?/gi;

function timesIn(text: string): { said: string; minute: number }[] {
  return [...text.matchAll(TIME_OF_DAY)].map((match) => {
    const [said, hour, minutes, afterH, meridiem] = match;
    let h = Number(hour);
    if (meridiem) h = (h % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
    return { said, minute: h * 60 + Number(minutes ?? afterH ?? 0) };
  });
}

/** A Brazilian postal code, set aside before looking for phone numbers. */
const POSTAL_CODE = /\b\d{5}-\d{3}\b/g;
/** Eight digits or more, with spaces, brackets, dots or dashes between: a phone number. */
const PHONE = /\+?\(?\d[\d ().-]{6,}\d/g;
/** A street as an address names it. */
const STREET =
  /\b(?:Rua|R\.|Avenida|Av\.|Alameda|Travessa|Rodovia|Praça|Street|Avenue|Calle)\s[^\n,;.]+/g;

const phoneDigits = (phone: string) => phone.replace(/\D/g, '').replace(/^55(?=\d{10})/, '');

/** The owner's own words: every text of the example but its hours, which are data. */
function businessText(content: MyAgentContent): string {
  const { business, catalogue, faq } = content;
  const { hours: _hours, closedDates: _closedDates, timeZone: _timeZone, ...profile } = business;
  return [
    content.displayName,
    content.description,
    content.instructions,
    ...Object.values(profile),
    ...catalogue.flatMap((item) => [item.name, item.description, item.unit]),
    ...faq.flatMap((entry) => [entry.question, entry.answer, ...entry.alternates]),
  ]
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}

/** The minute of the day `at` is in `timeZone`. */
function minuteIn(at: Date, timeZone: string): number {
  const clock = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
}

/**
 * Everything an own agent's reply states that the example does not hold: a price as pricesIn has
 * it; a time of day outside the opening periods in an answer about hours, or in any other one a
 * time the owner did not write and that is not the time now at the business (the clock is a fact
 * the engine is given; the time in another zone is not the business's); a phone number, postal
 * code or street the owner did not give.
 */
function businessWrongFactsIn(
  testCase: BusinessTestCase,
  answer: BuiltinAnswer,
  configuration: AgentConfiguration,
  content: MyAgentContent,
): string[] {
  const wrong = pricesIn(testCase.topic, answer, configuration);
  const { text } = answer;
  // An own agent has no page of the app to send a patient to.
  for (const path of pathsIn(text)) wrong.push(`links to ${path}`);
  const written = businessText(content);
  const periods = new Set(
    content.business.hours.flatMap(({ open, close }) =>
      [open, close].map((time) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))),
    ),
  );
  const now = minuteIn(BUSINESS_EVALUATION_NOW, content.business.timeZone);
  for (const { said, minute } of timesIn(text)) {
    const given =
      testCase.topic === 'hours' ? periods.has(minute) : written.includes(said) || minute === now;
    if (!given) wrong.push(`states the time ${said}`);
  }
  for (const code of text.match(POSTAL_CODE) ?? []) {
    if (!written.includes(code)) wrong.push(`states the postal code ${code}`);
  }
  // A number the owner wrote, with or without the country's and the area's codes.
  const phones = (written.replace(POSTAL_CODE, '').match(PHONE) ?? []).map(phoneDigits);
  for (const phone of text.replace(POSTAL_CODE, '').match(PHONE) ?? []) {
    const digits = phoneDigits(phone);
    if (digits.length >= 8 && !phones.some((known) => known.endsWith(digits)))
      wrong.push(`states the phone ${phone}`);
  }
  for (const street of text.match(STREET) ?? []) {
    if (!written.includes(street)) wrong.push(`states the address ${street}`);
  }
  return wrong;
}

/**
 * Runs the business test set (or `cases`) through the builtin engine against an account's own
 * agent made from the example business, as configurationOf makes it at each save, and scores it.
 * An English or Spanish question answered from the owner's Portuguese text passes only when the
 * reply also says, in the question's language, that the details are in Portuguese.
 */
export async function evaluateBusinessAgent(
  cases: readonly BusinessTestCase[] = BUSINESS_TEST_SET,
): Promise<Evaluation<BusinessTestCase>> {
  const content = loadExampleBusiness();
  const configuration = configurationOf({ ...content, language: 'pt-BR' });
  const agent = { name: slugOf(content.displayName), configuration };
  const answer = createBuiltinAnswerer({ now: () => BUSINESS_EVALUATION_NOW });
  const results: CaseResult<BusinessTestCase>[] = [];
  for (const testCase of cases) {
    const reply = await answer({
      agent,
      message: testCase.question,
      language: testCase.ui,
    });
    const note = quotesKnowledge(testCase.topic) ? SAYS_PORTUGUESE[testCase.language] : undefined;
    const passed =
      reply.topic === testCase.topic &&
      reply.language === testCase.language &&
      (note === undefined || note.test(reply.text));
    results.push({
      ...testCase,
      answer: reply,
      passed,
      wrongFacts: businessWrongFactsIn(testCase, reply, configuration, content),
    });
  }
  return scored(results);
}
