import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, NO_MONITOR, type TestContext } from '../../../test/helpers';
import { post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { photo } from '../../../test/media';
import { conversationDetail, conversations, linkSandbox } from '../../../test/whatsapp';
import { MEDIA_RETENTION_QUEUE } from './whatsapp.service';

// A process killed between writing a received file and storing its message leaves a file no
// message names: the hourly retention removes it once it is an hour old, never a file a message
// names, nor a younger one (another instance may be storing its message right now).

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const HOUR_MS = 60 * 60_000;

describe('the retention of received files: stray files', () => {
  let ctx: TestContext;
  let ana: Account;
  let bruno: Account;
  const anaPhone = '5511955550001';

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox' },
    });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    await linkSandbox(ctx, ana, anaPhone, { answeredBy: null });
    await linkSandbox(ctx, bruno, '5511955550002', { answeredBy: null });
  });
  afterAll(async () => ctx?.close());

  /** Writes a file under the account's directory, last written `ageMs` ago; its path. */
  function writeFile(userId: string, ageMs: number, name = `${randomUUID()}.jpg`): string {
    const dir = path.join(ctx.mediaDir, userId);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.from('bytes no message names'));
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(file, when, when);
    return file;
  }

  async function runRetention() {
    const { id } = await ctx.app.jobs.send(MEDIA_RETENTION_QUEUE, {});
    const settled = await ctx.jobs.settledJob(MEDIA_RETENTION_QUEUE.name, id);
    expect(settled.state).toBe('completed');
    return settled.output as { strays: number };
  }

  it('removes files no message names once an hour old, and keeps the young ones and every named one', async () => {
    const bytes = await photo();
    const res = await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: anaPhone,
      from: '5511977774444@s.whatsapp.net',
      media: { kind: 'image', mimetype: 'image/jpeg', dataBase64: bytes.toString('base64') },
    });
    expect(res.statusCode, res.body).toBe(200);
    const anaDir = path.join(ctx.mediaDir, ana.user.id);
    const [named] = fs.readdirSync(anaDir).filter((name) => !name.startsWith('.'));
    // Named by its message: kept however old its file looks.
    const namedFile = path.join(anaDir, named!);
    const old = new Date(Date.now() - 3 * HOUR_MS);
    fs.utimesSync(namedFile, old, old);

    const stray = writeFile(ana.user.id, 2 * HOUR_MS);
    const young = writeFile(ana.user.id, 5 * 60_000);
    // An account whose number never received a file has its strays removed too.
    const brunoStray = writeFile(bruno.user.id, HOUR_MS + 60_000);

    const { strays } = await runRetention();
    expect(strays).toBe(2);
    expect(fs.existsSync(stray)).toBe(false);
    expect(fs.existsSync(brunoStray)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
    expect(fs.existsSync(namedFile)).toBe(true);

    // The named file is still what its message shows.
    const [conversation] = await conversations(ctx, ana);
    const shown = (await conversationDetail(ctx, ana, conversation!.id)).messages.at(-1)!;
    const file = await ctx.app.inject({ method: 'GET', url: shown.media!.url! });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(bytes)).toBe(true);

    // An hour on, the young stray is one too.
    const later = new Date(Date.now() - HOUR_MS - 60_000);
    fs.utimesSync(young, later, later);
    expect((await runRetention()).strays).toBe(1);
    expect(fs.existsSync(young)).toBe(false);
    expect(fs.existsSync(namedFile)).toBe(true);
  });
});
