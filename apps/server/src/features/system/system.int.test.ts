import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';

describe('GET /api/health', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR });
  });
  afterAll(async () => ctx.close());

  it('reports ok with the database kind and version', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
      version: 'test',
    });
  });
});
