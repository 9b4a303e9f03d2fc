import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext, NO_MONITOR } from '../../test/helpers';
import { registerAndLogin } from '../../test/factories';

describe('the bearer token in Authorization', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR });
    ({ token } = await registerAndLogin(ctx, { name: 'Ana' }));
  });
  afterAll(async () => ctx.close());

  const user = (authorization: string) =>
    ctx.app.inject({ method: 'GET', url: '/api/user', headers: { authorization } });

  // RFC 9110 §11.1: the authentication scheme is case-insensitive.
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])(
    'takes the scheme written %s',
    async (scheme) => {
      const res = await user(`${scheme} ${token}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().user.name).toBe('Ana');
    },
  );

  it.each([
    ['another scheme', () => `Basic ${token}`],
    ['no scheme', () => token],
    ['a scheme without a token', () => 'Bearer '],
    ['the scheme run into the token', () => `Bearer${token}`],
  ])('refuses %s with a 401', async (_case, header) => {
    expect((await user(header())).statusCode).toBe(401);
  });
});
