import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';

// A message of invisible characters only (zero-width space, joiners, word joiner, BOM) is as
// empty as one of spaces, and is refused as an empty one is: same status, same field message.
describe('a chat message that shows nothing', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    ({ token } = await registerAndLogin(ctx, { name: 'Ana' }));
  });
  afterAll(async () => ctx.close());

  const send = (url: string, message: string) =>
    post(ctx, url, { message, agentName: 'guia' }, { token, language: 'en-US' });

  it.each(['/api/chat/message', '/api/chat'])('is refused by %s like an empty one', async (url) => {
    const empty = await send(url, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      success: false,
      message: 'Validation error',
      errors: { message: 'Please type a message' },
    });
    for (const text of ['\u200B\u200C\u200D\u2060\uFEFF', ' \u200B\n\uFEFF ']) {
      const res = await send(url, text);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(empty.json());
    }
  });

  it('takes a message whose text sits between invisible characters', async () => {
    expect((await send('/api/chat/message', '\u200Bhello\u200B')).statusCode).toBe(200);
  });
});
