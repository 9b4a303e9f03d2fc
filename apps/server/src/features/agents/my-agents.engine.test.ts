import { describe, expect, it } from 'vitest';
import { evaluateBusinessAgent, type CaseResult } from '../../../test/engine-evaluation';
import { BUSINESS_TEST_SET, type BusinessTestCase } from '../../../test/business-test-set';

// The builtin engine as an account's own agent, made from the example clinic: it answers at least
// 90 % of its patients' in-scope questions on topic in the question's language (an English or
// Spanish one from the Portuguese texts, saying that they are in Portuguese), refuses the
// out-of-scope ones honestly, and states no price, time, phone or address the clinic did not give.

const line = (r: CaseResult<BusinessTestCase>) =>
  `[${r.ui}] ${JSON.stringify(r.question)}: want ${r.topic} in ${r.language}, ` +
  `got ${r.answer.topic} in ${r.answer.language} ${r.wrongFacts.join('; ')}`;

describe('the builtin engine as the example clinic’s agent', async () => {
  const evaluation = await evaluateBusinessAgent();
  const { results } = evaluation;

  it('is asked at least 200 questions, in the three languages, in and out of scope', () => {
    expect(BUSINESS_TEST_SET.length).toBeGreaterThanOrEqual(200);
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
      const asked = BUSINESS_TEST_SET.filter((c) => c.language === language);
      expect(asked.some((c) => c.topic !== 'refusal')).toBe(true);
      expect(asked.some((c) => c.topic === 'refusal')).toBe(true);
    }
  });

  it('answers at least 90 % of the in-scope questions on topic, in the language of the question', () => {
    const missed = results.filter((r) => r.topic !== 'refusal' && !r.passed).map(line);
    expect(evaluation.inScope.share, missed.join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('refuses at least 95 % of the out-of-scope questions honestly', () => {
    // The aim is all of them. What still slips through is a question on something next to what
    // the clinic wrote ("posso levar meu cachorro na consulta?" meets what to bring to one).
    const answered = results.filter((r) => r.topic === 'refusal' && !r.passed).map(line);
    expect(evaluation.outOfScope.share, answered.join('\n')).toBeGreaterThanOrEqual(0.95);
  });

  it('states no price, time, phone, address or link that the clinic did not give', () => {
    expect(results.filter((r) => r.wrongFacts.length > 0).map(line)).toEqual([]);
  });
});
