import { describe, expect, it } from 'vitest';
import { calculationIn, evaluate } from './ai.arithmetic';

const value = (source: string) => {
  const result = evaluate(source);
  return result?.ok ? result.value : result;
};

describe('evaluate', () => {
  it('follows precedence, brackets, unary signs and decimals', () => {
    expect(value('2 + 3 * (4 - 1)')).toBe(11);
    expect(value('2 * 3 + 4')).toBe(10);
    expect(value('10 - 4 - 3')).toBe(3);
    expect(value('64 / 4 / 2')).toBe(8);
    expect(value('-(2 + 3) * -2')).toBe(10);
    expect(value('.5 + 1.25')).toBe(1.75);
    expect(value('((1))+((2))')).toBe(3);
  });

  it('reports division by zero instead of Infinity, and bounds the input', () => {
    expect(evaluate('1 / 0')).toEqual({ ok: false, error: 'division-by-zero' });
    expect(evaluate('1 / (3 - 3)')).toEqual({ ok: false, error: 'division-by-zero' });
    expect(evaluate(`${'9'.repeat(200)} * ${'9'.repeat(120)}`)).toBeUndefined(); // longer than the cap
    expect(evaluate(`1e308 * 10`)).toBeUndefined(); // exponents are not in the grammar
  });

  it('is not a calculation: lone numbers, other text, bad syntax, deep nesting', () => {
    for (const source of [
      '42',
      '-7',
      '',
      'abc',
      '2 +',
      '(1 + 2',
      '1 + 2)',
      '2 ** 3',
      'constructor',
      'alert(1)',
      `${'('.repeat(60)}1 + 1${')'.repeat(60)}`,
    ]) {
      expect(evaluate(source), source).toBeUndefined();
    }
  });
});

describe('calculationIn', () => {
  it('reads calculations out of questions in each language', () => {
    expect(calculationIn('Quanto é 7 vezes 6?', 'pt-BR')).toMatchObject({
      ok: true,
      value: 42,
      shown: '7 × 6',
    });
    expect(calculationIn('quanto é 2,5 + 0,25?', 'pt-BR')).toMatchObject({
      value: 2.75,
      shown: '2,5 + 0,25',
    });
    expect(calculationIn('what is 12 divided by 4?', 'en-US')).toMatchObject({ value: 3 });
    expect(calculationIn('2,000 + 1 =', 'en-US')).toMatchObject({ value: 2001 });
    expect(calculationIn('cuánto es 9 entre 3', 'es-ES')).toBeUndefined();
    expect(calculationIn('¿cuánto es 9 dividido entre 3?', 'es-ES')).toMatchObject({ value: 3 });
    expect(calculationIn('que horas são? 10:30', 'pt-BR')).toBeUndefined();
    expect(calculationIn('how much is the consulting?', 'en-US')).toBeUndefined();
  });

  it('reads sums as Brazilians and others write them: grouped thousands, shares, halves', () => {
    const cases: Array<[string, 'pt-BR' | 'en-US' | 'es-ES', number, string]> = [
      ['1.250,50 + 349,90', 'pt-BR', 1600.4, '1.250,50 + 349,90'],
      ['15% de 2.340', 'pt-BR', 351, '15% de 2.340'],
      ['12.5% of 480', 'en-US', 60, '12.5% of 480'],
      ['7 x 8 + 12', 'pt-BR', 68, '7 × 8 + 12'],
      ['2340 * 0,15', 'pt-BR', 351, '2340 × 0,15'],
      ['quanto é a metade de 90', 'pt-BR', 45, 'metade de 90'],
      ['¿cuánto es el 20% de 150?', 'es-ES', 30, '20% de 150'],
      ['what is half of 90?', 'en-US', 45, 'half of 90'],
      ['2.5 * 2', 'pt-BR', 5, '2,5 × 2'],
    ];
    for (const [question, language, value, shown] of cases) {
      expect(calculationIn(question, language), question).toEqual({ ok: true, value, shown });
    }
  });
});
