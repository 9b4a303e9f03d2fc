import type { Language } from '@contrateia/shared';
import { normalizeText } from './ai.search';

/**
 * A small recursive-descent evaluator for + - * / ( ), unary signs and decimals.
 *
 * Why not a library: expr-eval, the usual choice, has had no release since 2019 and carries
 * published prototype-pollution and code-injection advisories; its forks are young. The grammar
 * the calculation skill needs is five rules, and a parser we own can never reach eval, Function, a
 * property lookup or a variable. Inputs are bounded (length and nesting) so a hostile message
 * cannot exhaust the stack.
 *
 *   expression := term (('+' | '-') term)*
 *   term       := unary (('*' | '/') unary)*
 *   unary      := ('+' | '-') unary | primary
 *   primary    := number | '(' expression ')'
 */
export type ArithmeticResult =
  | { ok: true; value: number; /** the expression as it was read, for the reply */ shown: string }
  | { ok: false; error: 'division-by-zero' | 'not-finite' };

const MAX_LENGTH = 200;
const MAX_DEPTH = 40;

type Token =
  | { kind: 'number'; value: number; text: string }
  | { kind: 'op'; value: '+' | '-' | '*' | '/' | '(' | ')' };

class ArithmeticError extends Error {
  constructor(readonly code: 'invalid' | 'division-by-zero') {
    super(code);
  }
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+(?:\.\d+)?|\.\d+)|([-+*/()]))/y;
  let position = 0;
  while (position < source.length) {
    if (/^\s*$/.test(source.slice(position))) break;
    pattern.lastIndex = position;
    const match = pattern.exec(source);
    if (!match) throw new ArithmeticError('invalid');
    position = pattern.lastIndex;
    if (match[1] !== undefined)
      tokens.push({ kind: 'number', value: Number(match[1]), text: match[1] });
    else tokens.push({ kind: 'op', value: match[2] as '+' | '-' | '*' | '/' | '(' | ')' });
  }
  return tokens;
}

class Parser {
  private position = 0;
  /** Binary operators seen: a lone number is not a calculation. */
  binaryOperators = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    const value = this.expression(0);
    if (this.position !== this.tokens.length) throw new ArithmeticError('invalid');
    return value;
  }

  private peekOp(): string | undefined {
    const token = this.tokens[this.position];
    return token?.kind === 'op' ? token.value : undefined;
  }

  private expression(depth: number): number {
    let value = this.term(depth);
    for (let op = this.peekOp(); op === '+' || op === '-'; op = this.peekOp()) {
      this.position += 1;
      this.binaryOperators += 1;
      const right = this.term(depth);
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  private term(depth: number): number {
    let value = this.unary(depth);
    for (let op = this.peekOp(); op === '*' || op === '/'; op = this.peekOp()) {
      this.position += 1;
      this.binaryOperators += 1;
      const right = this.unary(depth);
      if (op === '/' && right === 0) throw new ArithmeticError('division-by-zero');
      value = op === '*' ? value * right : value / right;
    }
    return value;
  }

  private unary(depth: number): number {
    if (depth > MAX_DEPTH) throw new ArithmeticError('invalid');
    const op = this.peekOp();
    if (op === '+' || op === '-') {
      this.position += 1;
      const value = this.unary(depth + 1);
      return op === '-' ? -value : value;
    }
    return this.primary(depth);
  }

  private primary(depth: number): number {
    const token = this.tokens[this.position];
    if (!token) throw new ArithmeticError('invalid');
    this.position += 1;
    if (token.kind === 'number') return token.value;
    if (token.value !== '(') throw new ArithmeticError('invalid');
    const value = this.expression(depth + 1);
    if (this.peekOp() !== ')') throw new ArithmeticError('invalid');
    this.position += 1;
    return value;
  }
}

/**
 * Evaluates an expression in the grammar above; undefined when the text is not a calculation
 * (not in the grammar, or a lone number).
 */
export function evaluate(
  source: string,
  decimalSeparator: '.' | ',' = '.',
): ArithmeticResult | undefined {
  if (source.length > MAX_LENGTH) return undefined;
  try {
    const tokens = tokenize(source);
    const parser = new Parser(tokens);
    const value = parser.parse();
    if (parser.binaryOperators === 0) return undefined;
    if (!Number.isFinite(value)) return { ok: false, error: 'not-finite' };
    return { ok: true, value, shown: show(tokens, decimalSeparator) };
  } catch (error) {
    if (error instanceof ArithmeticError && error.code === 'division-by-zero') {
      return { ok: false, error: 'division-by-zero' };
    }
    return undefined;
  }
}

// Multiplication and division are shown as × and ÷: an asterisk between spaces reads as a
// calculation, but several of them can turn into emphasis when the reply is rendered as Markdown.
function show(tokens: Token[], decimalSeparator: '.' | ','): string {
  const parts = tokens.map((t) =>
    t.kind === 'number'
      ? t.text.replace('.', decimalSeparator)
      : t.value === '*'
        ? '×'
        : t.value === '/'
          ? '÷'
          : t.value,
  );
  return parts.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
}

// The ways people ask for a calculation around the expression itself, removed before parsing.
const LEAD_INS: Record<Language, RegExp> = {
  'pt-BR': /^(quanto (e|da|sao)|qual (e )?o resultado de|calcul[ea]r?|resolva|conta:?)\s+/,
  'en-US': /^(what('s| is)|how much is|calculate|compute|solve|what does)\s+/,
  'es-ES': /^(cuanto (es|da|son)|cual es el resultado de|calcula(r)?|resuelve)\s+/,
};
const TAIL = /(\s*(=|\?|!|\.|equals?|e igual a|es igual a))*\s*$/;

const WORD_OPERATORS: Record<Language, Array<[RegExp, string]>> = {
  'pt-BR': [
    [/\bdividido por\b/g, '/'],
    [/\bmultiplicado por\b/g, '*'],
    [/\bvezes\b/g, '*'],
    [/\bmais\b/g, '+'],
    [/\bmenos\b/g, '-'],
  ],
  'en-US': [
    [/\bdivided by\b/g, '/'],
    [/\bmultiplied by\b/g, '*'],
    [/\btimes\b/g, '*'],
    [/\bplus\b/g, '+'],
    [/\bminus\b/g, '-'],
  ],
  'es-ES': [
    [/\bdividido (por|entre)\b/g, '/'],
    [/\bmultiplicado por\b/g, '*'],
    [/\bpor\b/g, '*'],
    [/\bmas\b/g, '+'],
    [/\bmenos\b/g, '-'],
  ],
};

const NUMBER = '(\\d+(?:\\.\\d+)?)';
const PERCENT_OF: Record<Language, RegExp> = {
  'pt-BR': new RegExp(`${NUMBER}\\s*%\\s*(?:de|do|da|sobre)\\s+${NUMBER}`, 'g'),
  'en-US': new RegExp(`${NUMBER}\\s*%\\s*of\\s+${NUMBER}`, 'g'),
  'es-ES': new RegExp(`${NUMBER}\\s*%\\s*(?:de|del|sobre)\\s+${NUMBER}`, 'g'),
};
const fraction = (words: string, divisor: number): [RegExp, number] => [
  new RegExp(
    `(?:^|\\b)(?:a |o |la |el |one |an? )?(?:${words})\\s+(?:de|of|del)\\s+${NUMBER}`,
    'g',
  ),
  divisor,
];
const FRACTIONS_OF: Record<Language, Array<[RegExp, number]>> = {
  'pt-BR': [
    fraction('metade', 2),
    fraction('terca parte|terco', 3),
    fraction('quarta parte|quarto', 4),
    fraction('dobro', 0.5),
    fraction('triplo', 1 / 3),
  ],
  'en-US': [
    fraction('half', 2),
    fraction('third', 3),
    fraction('quarter', 4),
    fraction('double', 0.5),
  ],
  'es-ES': [
    fraction('mitad', 2),
    fraction('tercera parte|tercio', 3),
    fraction('cuarta parte|cuarto', 4),
    fraction('doble', 0.5),
    fraction('triple', 1 / 3),
  ],
};

/**
 * Reads a calculation out of a chat message ("quanto é 2,5 x 4?", "what is 3 plus 4"):
 * the evaluated result, or undefined when the message is not one.
 */
export function calculationIn(message: string, language: Language): ArithmeticResult | undefined {
  // Long messages are prose, not sums; the cap also bounds the regular expressions below.
  if (message.length > MAX_LENGTH * 2) return undefined;
  let text = normalizeText(message)
    .replace(/^[\s¿¡]+/, '')
    .replace(TAIL, '')
    .replace(LEAD_INS[language], '')
    .replace(/^(o|a|os|as|el|la|the)\s+/, '');
  if (!/\d/.test(text)) return undefined;
  for (const [pattern, op] of WORD_OPERATORS[language]) text = text.replace(pattern, op);
  const written = text;
  text = text.replace(/[×x]/g, '*').replace(/÷/g, '/');
  // Decimal commas in Portuguese and Spanish ("1.250,50"); in English a comma groups thousands.
  const english = language === 'en-US';
  text = english
    ? text.replace(/(\d),(?=\d{3}\b)/g, '$1')
    : text.replace(/(\d)\.(?=\d{3}(?:\D|$))/g, '$1').replace(/(\d),(\d)/g, '$1.$2');
  // "15% de 2340", "12.5% of 480": a share of a number; "20%" alone is a hundredth.
  text = text
    .replace(PERCENT_OF[language], '($1 / 100 * $2)')
    .replace(/(\d+(?:\.\d+)?)\s*%/g, '($1 / 100)');
  // "a metade de 90", "a third of 12".
  for (const [pattern, divisor] of FRACTIONS_OF[language]) {
    text = text.replace(pattern, `($1 / ${divisor})`);
  }
  const result = evaluate(text, english ? '.' : ',');
  // Shares, fractions and grouped thousands read best as the user wrote them ("15% de 2.340").
  if (result?.ok && /%|\d[.,]\d{3}\b|[a-z]{3,}/.test(written)) {
    return { ...result, shown: written.replace(/\s*\*\s*/g, ' × ').replace(/\s*\/\s*/g, ' ÷ ') };
  }
  return result;
}
