import { describe, expect, it } from 'vitest';
import { LOCAL_ONLY } from '@/lib/logger';
import { MESSAGE_MAX, neutralise, rowOfEvent, rowOfLine } from './logs.sanitize';

const at = new Date('2026-05-01T12:00:00.000Z');

describe('neutralise', () => {
  it('escapes controls and invisible reordering characters, keeping the rest of the text as it is', () => {
    expect(neutralise('ação\r\nnext\tline\u0000\u001b[31m\u2028\u202e', 100)).toBe(
      'ação\\r\\nnext\\tline\\u0000\\u001b[31m\\u2028\\u202e',
    );
    expect(neutralise('Olá, Señora Müller 😀', 100)).toBe('Olá, Señora Müller 😀');
  });

  it('cuts long text with an ellipsis, never between the halves of a character', () => {
    expect(neutralise('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    const cut = neutralise(`${'x'.repeat(8)}😀😀😀`, 10);
    expect(cut).toBe(`${'x'.repeat(8)}…`);
    expect(encodeURIComponent(cut)).toBeTruthy(); // throws on half a pair
  });

  it('replaces half a surrogate pair, which PostgreSQL refuses in JSON', () => {
    expect(neutralise('a\ud800b\udc00c', 100)).toBe('a\ufffdb\ufffdc');
  });

  it('blanks what looks like a token or a password hash wherever it is', () => {
    expect(
      neutralise(
        'auth Bearer abcdefghijklmnop and eyJabcd.eyJefgh.sig12345 and $argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA',
        200,
      ),
    ).toBe('auth Bearer [redacted] and [redacted] and [redacted]');
  });
});

describe('rowOfEvent', () => {
  it('keeps plain fields, blanks the secret ones, and gives the columns their own place', () => {
    const row = rowOfEvent(
      {
        category: 'auth',
        event: 'auth.sign_in',
        message: 'Signed in',
        userId: 'u-1',
        context: {
          role: 'admin',
          attempts: 2,
          ok: true,
          none: null,
          skipped: undefined,
          otp: '123456',
          code: '654321',
          newPassword: 'x',
          accessToken: 'y',
          category: 'admin',
          ratio: Number.NaN,
        },
      },
      at,
    );
    expect(row).toEqual({
      at,
      level: 'info',
      category: 'auth',
      event: 'auth.sign_in',
      message: 'Signed in',
      userId: 'u-1',
      requestId: null,
      context: {
        role: 'admin',
        attempts: 2,
        ok: true,
        none: null,
        otp: '[redacted]',
        code: '[redacted]',
        newPassword: '[redacted]',
        accessToken: '[redacted]',
        ratio: 'NaN',
      },
    });
  });
});

describe('rowOfLine', () => {
  it("takes a logged line's message, request id, plain fields and error (not its stack)", () => {
    const line = JSON.stringify({
      level: 50,
      time: 1,
      pid: 2,
      hostname: 'h',
      reqId: 'req-9',
      userId: 'u-2',
      msg: 'request failed',
      err: {
        type: 'DrizzleQueryError',
        message: 'Failed query: insert …',
        stack: 'DrizzleQueryError: …\n    at x',
        code: '[redacted]',
        database: { code: '23505', constraint: 'users_email_unique' },
      },
      statusCode: 500,
      tags: ['a', 'b'],
      deep: { one: { two: { three: 'too deep' } } },
    });
    expect(rowOfLine(line, 50, at)).toEqual({
      at,
      level: 'error',
      category: 'server',
      event: null,
      message: 'request failed',
      userId: 'u-2',
      requestId: 'req-9',
      context: {
        'err.type': 'DrizzleQueryError',
        'err.message': 'Failed query: insert …',
        'err.code': '[redacted]',
        'err.database.code': '23505',
        'err.database.constraint': 'users_email_unique',
        statusCode: 500,
        tags: 'a, b',
      },
    });
  });

  it('stores a fatal line as an error saying so, and a line that is not JSON as its text', () => {
    expect(rowOfLine(JSON.stringify({ level: 60, msg: 'dying' }), 60, at)).toMatchObject({
      level: 'error',
      message: 'dying',
      context: { fatal: true },
    });
    expect(rowOfLine(`plain text\nsecond line ${'y'.repeat(2000)}`, 40, at)).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/^plain text\\nsecond line y+…$/),
    });
    expect(rowOfLine('plain', 40, at)!.message.length).toBeLessThanOrEqual(MESSAGE_MAX);
  });

  it("leaves out a line kept for the server's own log (LOCAL_ONLY)", () => {
    expect(
      rowOfLine(
        JSON.stringify({ level: 40, ...LOCAL_ONLY, msg: 'To: a@example.com, your code is 123456' }),
        40,
        at,
      ),
    ).toBeUndefined();
    // The marker in a person's text is only text.
    expect(rowOfLine(JSON.stringify({ level: 40, msg: '"localOnly":true' }), 40, at)).toMatchObject(
      { message: '"localOnly":true' },
    );
  });
});

describe("an error's fields", () => {
  const at = new Date('2026-01-02T03:04:05.000Z');

  it("keeps an error's key, the text it names, while passwords, tokens and authorization stay redacted", () => {
    const line = JSON.stringify({
      level: 50,
      msg: 'request failed',
      err: {
        type: 'AppError',
        message: 'errors.server',
        key: 'errors.server',
        token: 'abc',
        password: 'hunter22',
      },
      req: { headers: { authorization: 'Bearer abcdefghijkl' } },
      apiKey: 'sk-1234',
      key: 'not an error field',
    });
    expect(rowOfLine(line, 50, at)!.context).toMatchObject({
      'err.key': 'errors.server',
      'err.token': '[redacted]',
      'err.password': '[redacted]',
      'req.headers.authorization': '[redacted]',
      apiKey: '[redacted]',
      key: '[redacted]',
    });
  });
});
