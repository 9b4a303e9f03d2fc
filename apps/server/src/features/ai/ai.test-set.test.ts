import { describe, expect, it } from 'vitest';
import { LANGUAGES, SEEDED_AGENT_NAMES } from '@contrateia/shared';
import { evaluateEngine, type CaseResult } from '../../../test/engine-evaluation';
import { TEST_SET } from './ai.test-set';

// The builtin engine's targets, on the seeded agents' real data: the builtin engine answers at least 90 %
// of the in-scope questions on topic in the question's language, refuses every out-of-scope one
// honestly, and states no fact its data does not hold.

const line = (r: CaseResult) =>
  `${r.agent} [${r.ui}] ${JSON.stringify(r.question)}: want ${r.topic} in ${r.language}, ` +
  `got ${r.answer.topic} in ${r.answer.language} ${r.wrongFacts.join('; ')}`;

describe('the builtin engine on its test set', async () => {
  const evaluation = await evaluateEngine();
  const { results } = evaluation;

  it('has at least 150 questions, for every agent and language, in and out of scope', () => {
    expect(TEST_SET.length).toBeGreaterThanOrEqual(150);
    for (const agent of SEEDED_AGENT_NAMES) {
      for (const language of LANGUAGES) {
        const asked = TEST_SET.filter((c) => c.agent === agent && c.language === language);
        expect(
          asked.some((c) => c.topic !== 'refusal'),
          `${agent} ${language}`,
        ).toBe(true);
        expect(
          asked.some((c) => c.topic === 'refusal'),
          `${agent} ${language}`,
        ).toBe(true);
      }
    }
  });

  it('answers at least 90 % of the in-scope questions on topic, in the language of the question', () => {
    const missed = results.filter((r) => r.topic !== 'refusal' && !r.passed).map(line);
    expect(evaluation.inScope.share, missed.join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('refuses every out-of-scope question honestly, in the language of the question', () => {
    const answered = results.filter((r) => r.topic === 'refusal' && !r.passed).map(line);
    expect(answered).toEqual([]);
  });

  it('states no link, price or figure that its data does not hold', () => {
    expect(results.filter((r) => r.wrongFacts.length > 0).map(line)).toEqual([]);
  });
});
