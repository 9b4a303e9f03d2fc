import { WEB_PAGES, type AgentConfiguration, type Language } from '@contrateia/shared';
import { loadSeededAgents } from '../src/features/agents/agents.seed';
import { createBuiltinAnswerer, type BuiltinAnswer } from '../src/features/ai/ai.builtin';
import type { LiveFacts } from '../src/features/ai/ai.service';
import { TEST_SET, type TestCase } from '../src/features/ai/ai.test-set';

// Scores the builtin engine on its test set against the seeded agents' data: the three figures it
// has targets for, in-scope questions answered on topic in the question's language (at least 90 %),
// out-of-scope ones refused honestly (all) and wrong facts stated (none). One function for
// `npm test` (ai.test-set.test.ts) and `npm run bench`.

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

export type CaseResult = TestCase & {
  answer: BuiltinAnswer;
  /** In scope: answered on the expected topic, in the expected language. Out: refused in it. */
  passed: boolean;
  /** What the reply states that the agent's data does not hold. */
  wrongFacts: string[];
};

export type Evaluation = {
  results: CaseResult[];
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
  // Prices: each amount stands in the block of one item (its **title** first) and is that item's
  // price; a question about one item gets no other item's price, and a refusal none at all.
  const catalogue = configuration.catalogue;
  for (const block of text.split(/\n\n(?=\*\*)/)) {
    const amounts = (block.match(/R\$\s?[\d.,]+/g) ?? []).map((a) => a.replace(/\s/g, ' '));
    if (amounts.length === 0) continue;
    const title = /^\*\*(.+?)\*\*/.exec(block)?.[1];
    const item = catalogue?.items.find((i) => i.name[answer.language] === title);
    for (const amount of amounts) {
      if (!item || !catalogue) wrong.push(`states ${amount} outside any item`);
      else if (amount !== money(answer.language, catalogue.currency, item.price))
        wrong.push(`states ${amount} for ${item.id}`);
      else if (testCase.topic === 'refusal') wrong.push(`states ${amount} instead of refusing`);
      else if (testCase.topic.startsWith('catalogue.') && testCase.topic !== `catalogue.${item.id}`)
        wrong.push(`states ${item.id}'s price for ${testCase.topic}`);
    }
  }
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
