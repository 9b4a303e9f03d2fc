import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminAuditResponse, ListLogsResponse } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { logEvents } from '@/features/logs/logs.table';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { recordAudit } from './audit.service';
import { adminAudit } from './audit.table';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/**
 * An admin change's audit row and its stored-log row are written in the change's own
 * transaction: both are kept or neither, and a committed change has both the moment it answers.
 * The log writer here never flushes while the test runs, so nothing can come through it.
 */
describe('the audit of an admin change', () => {
  let ctx: TestContext;
  let admin: Account;

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      logs: { writer: { flushMs: 10 * 60_000 } },
    });
    // The first account of a database is its admin.
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
  });

  afterAll(async () => ctx?.close());

  /** How many audit rows and `admin.<action>` log rows name `target`, as `db` sees them. */
  async function rowsOf(db: Db, action: string, target: string) {
    const [audit, logged] = await Promise.all([
      db
        .select()
        .from(adminAudit)
        .where(and(eq(adminAudit.action, action), eq(adminAudit.target, target))),
      db
        .select()
        .from(logEvents)
        .where(eq(logEvents.event, `admin.${action}`))
        .then((rows) => rows.filter((row) => row.context.target === target)),
    ]);
    return { audit: audit.length, logged: logged.length };
  }

  it('leaves neither the audit row nor the log row of a change that fails after recording itself', async () => {
    const target = randomUUID();
    const failure = new Error('the change failed after its audit record');
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await recordAudit(tx, {
          actor: { actorId: admin.user.id, ip: '203.0.113.7', requestId: 'req-rolled-back' },
          at: ctx.clock.now(),
          action: 'image.update',
          target,
          targetName: 'logo',
          changes: { title: { before: 'logo', after: 'new logo' } },
        });
        // Written in the transaction, both seen by it...
        expect(await rowsOf(tx, 'image.update', target)).toEqual({ audit: 1, logged: 1 });
        throw failure;
      }),
    ).rejects.toBe(failure);
    // ...and gone with it.
    expect(await rowsOf(ctx.database.db, 'image.update', target)).toEqual({ audit: 0, logged: 0 });
  });

  it('has both rows of a committed change as soon as it answers, the log row searchable in every language', async () => {
    const theme = (await get(ctx, '/api/admin/settings', { token: admin.token })).json<{
      themeSettings: Record<string, string>;
    }>().themeSettings;
    const saved = await post(
      ctx,
      '/api/admin/settings/theme',
      { ...theme, primaryColor: '#0a0b0c' },
      { token: admin.token },
    );
    expect(saved.statusCode, saved.body).toBe(200);

    // No wait: read at once.
    expect(await rowsOf(ctx.database.db, 'settings.theme', 'theme')).toEqual({
      audit: 1,
      logged: 1,
    });
    const audit = (
      await get(ctx, '/api/admin/audit?limit=50', { token: admin.token })
    ).json<AdminAuditResponse>();
    expect(audit.entries.filter((entry) => entry.action === 'settings.theme')).toMatchObject([
      { target: 'theme', changes: { primaryColor: { after: '#0a0b0c' } } },
    ]);
    for (const [language, search] of [
      ['pt-BR', 'configurações de tema'],
      ['en-US', 'theme settings'],
      ['es-ES', 'configuración del tema'],
    ] as const) {
      const res = await get(
        ctx,
        `/api/logs?${new URLSearchParams({ category: 'admin', search })}`,
        {
          token: admin.token,
          language,
        },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<ListLogsResponse>().logs, language).toMatchObject([
        {
          changes: [{ field: 'primaryColor', from: theme.primaryColor, to: '#0a0b0c' }],
          context: {
            event: 'admin.settings.theme',
            userId: admin.user.id,
            requestId: expect.any(String),
            target: 'theme',
          },
        },
      ]);
    }
  });
});
