import { describe, expect, it } from 'vitest';
import { emailSchema, loginSchema } from './auth.schemas';

describe('emailSchema', () => {
  it.each([
    ['  Maria.Souza@Example.COM ', 'maria.souza@example.com'],
    ['João.Silva@Café.com.br', 'joão.silva@café.com.br'],
    ["o'brien+news@x.ie", "o'brien+news@x.ie"],
  ])('keeps %j in its one written form, %j', (input, output) => {
    expect(emailSchema.parse(input)).toBe(output);
  });

  it.each([
    '\u212Aate@example.com', // KELVIN SIGN: NFKC makes it K, another address
    '\uFF4Daria@example.com', // full-width m
    'maria@example\uFF0Ecom', // full-width full stop
    'ma\u200Bria@example.com', // zero-width space
    'maria\u00AD@example.com', // soft hyphen
    'maria@exam\u200Dple.com', // zero-width joiner
    'maria\u202E@example.com', // right-to-left override
    'maria\u0000@example.com',
    'a@example.com.',
    'a@example..com',
    'a..b@example.com',
    '.a@example.com',
    'a@-example.com',
    '"a"@example.com',
    'a@[127.0.0.1]',
    'a@example.123',
    'a@b',
  ])('refuses %j as an invalid e-mail', (input) => {
    const result = emailSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain('validation.emailInvalid');
  });
});

describe('loginSchema', () => {
  it('lower-cases the name, and refuses an e-mail that is not in its one written form', () => {
    expect(loginSchema.parse({ email: ' Maria@X.com ', password: 'x' }).email).toBe('maria@x.com');
    expect(loginSchema.parse({ email: 'Maria', password: 'x' }).email).toBe('maria');
    expect(loginSchema.safeParse({ email: '\u212Aate@x.com', password: 'x' }).success).toBe(false);
  });
});
