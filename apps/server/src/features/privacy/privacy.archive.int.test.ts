import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  accountArchiveLinkSchema,
  accountExportSchema,
  type AccountExport,
  type WhatsAppMessage,
} from '@contrateia/shared';
import { createTestApp, NO_MONITOR, type TestContext } from '../../../test/helpers';
import {
  get,
  login,
  message,
  post,
  registerAndLogin,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { photo } from '../../../test/media';
import { conversationDetail, conversations, linkSandbox } from '../../../test/whatsapp';

// "Download my data" with the files: a ZIP holding the export as data.json and every file the
// account keeps, under names the server made; only the account's own, to its own session or
// through the short-lived address its session asked for.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
type Entry = { data: Buffer; compressed: boolean };

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

/** Every entry of a ZIP, read with a real unzip library (which checks each entry's CRC). */
function unzip(zip: Buffer): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const entries = new Map<string, Entry>();
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, {
              data: Buffer.concat(chunks),
              compressed: entry.compressionMethod !== 0,
            });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

describe('"Download my data" as a ZIP with the files', () => {
  let ctx: TestContext;
  let ana: Account;
  let bruno: Account;
  const anaPhone = '5511944440001';
  const brunoPhone = '5511944440002';
  const customer = '5511977775555@s.whatsapp.net';
  const otherCustomer = '5511977775556@s.whatsapp.net';

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: { ...UNLIMITED_ROUTES, archivePerMinute: 10_000 } },
      whatsapp: { transport: 'sandbox' },
    });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    // Nobody answers: these tests are about what is kept.
    await linkSandbox(ctx, ana, anaPhone, { answeredBy: null });
    await linkSandbox(ctx, bruno, brunoPhone, { answeredBy: null });
  });
  afterAll(async () => ctx?.close());

  /** A file `from` sends to `to`, as the sandbox's phone delivers it; its message as the pane shows it. */
  async function received(
    owner: Account,
    { to, from, media }: { to: string; from: string; media: Record<string, unknown> },
  ): Promise<WhatsAppMessage & { conversationId: string }> {
    const res = await post(ctx, '/api/whatsapp/sandbox/inbound', { to, from, media });
    expect(res.statusCode, res.body).toBe(200);
    const contact = from.split('@')[0]!;
    const conversation = (await conversations(ctx, owner)).find(
      (c) => c.contact_number.replace(/\D/g, '') === contact,
    )!;
    const shown = (await conversationDetail(ctx, owner, conversation.id)).messages.at(-1)!;
    return { ...shown, conversationId: conversation.id };
  }

  const jpeg = async () => ({
    kind: 'image',
    mimetype: 'image/jpeg',
    dataBase64: (await photo()).toString('base64'),
  });

  /** Downloads the account's ZIP with its session; the entries. */
  async function archiveOf(account: Account): Promise<Map<string, Entry>> {
    const res = await get(ctx, '/api/account/export/archive', { token: account.token });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="contrateia-${account.user.username}.zip"`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    return unzip(res.rawPayload);
  }

  const dataOf = (entries: Map<string, Entry>): AccountExport =>
    accountExportSchema.parse(JSON.parse(entries.get('data.json')!.data.toString('utf8')));

  it("holds data.json (the same export) and each kept file's bytes under the server's names, never another account's", async () => {
    const anaPhoto = await photo();
    const shown = await received(ana, { to: anaPhone, from: customer, media: await jpeg() });
    // A contact's file name that would climb out of any folder it was written to.
    const document = await received(ana, {
      to: anaPhone,
      from: otherCustomer,
      media: {
        kind: 'document',
        mimetype: 'application/pdf',
        fileName: '../../../etc/Orçamento.pdf',
        dataBase64: PDF.toString('base64'),
      },
    });
    // A location carries no file: listed nowhere among the files.
    await received(ana, {
      to: anaPhone,
      from: customer,
      media: { kind: 'location', latitude: -23.56, longitude: -46.65 },
    });
    const brunos = await received(bruno, {
      to: brunoPhone,
      from: customer,
      media: {
        kind: 'document',
        mimetype: 'application/pdf',
        fileName: 'bruno.pdf',
        dataBase64: Buffer.from(`${PDF.toString()}% Bruno's own\n`).toString('base64'),
      },
    });

    const entries = await archiveOf(ana);
    const data = dataOf(entries);
    // The same export as the JSON one, but for when it was made.
    const json = await get(ctx, '/api/account/export', { token: ana.token });
    expect({ ...data, exportedAt: '' }).toEqual({ ...json.json<AccountExport>(), exportedAt: '' });

    const photoEntry = data.whatsapp.media.find((m) => m.messageId === shown.id)!;
    const documentEntry = data.whatsapp.media.find((m) => m.messageId === document.id)!;
    expect(photoEntry).toMatchObject({ kind: 'image', kept: true, size: anaPhoto.length });
    expect(photoEntry.archivePath).toBe(`media/${photoEntry.conversationId}/${shown.id}.jpg`);
    expect(documentEntry).toMatchObject({
      kind: 'document',
      fileName: '../../../etc/Orçamento.pdf',
      mimetype: 'application/pdf',
      archivePath: `media/${documentEntry.conversationId}/${document.id}.pdf`,
    });
    expect(data.whatsapp.media.map((m) => m.kind).sort()).toEqual(['document', 'image']);

    // Exactly data.json and the kept files, each as it was received; stored as is, the JSON deflated.
    expect([...entries.keys()].sort()).toEqual(
      ['data.json', photoEntry.archivePath!, documentEntry.archivePath!].sort(),
    );
    expect(entries.get(photoEntry.archivePath!)!.data.equals(anaPhoto)).toBe(true);
    expect(entries.get(photoEntry.archivePath!)!.compressed).toBe(false);
    expect(entries.get(documentEntry.archivePath!)!.data.equals(PDF)).toBe(true);
    expect(entries.get('data.json')!.compressed).toBe(true);
    for (const name of entries.keys()) expect(name).not.toMatch(/\.\.|^\/|\\/);

    // Bruno's file is in his archive alone.
    const brunoEntries = await archiveOf(bruno);
    const brunoFile = dataOf(brunoEntries).whatsapp.media.find((m) => m.messageId === brunos.id)!;
    expect(brunoEntries.has(brunoFile.archivePath!)).toBe(true);
    expect([...entries.keys()].some((name) => name.includes(brunos.id))).toBe(false);
    const brunoBytes = brunoEntries.get(brunoFile.archivePath!)!.data;
    for (const { data: bytes } of entries.values()) expect(bytes.equals(brunoBytes)).toBe(false);
  });

  it('leaves out a file removed since it was listed (the retention ran), and its listing says so', async () => {
    const shown = await received(ana, { to: anaPhone, from: customer, media: await jpeg() });
    const listed = (await get(ctx, '/api/account/export', { token: ana.token }))
      .json<AccountExport>()
      .whatsapp.media.find((m) => m.messageId === shown.id)!;
    expect(listed.kept).toBe(true);
    // Its file goes from the disk, as the retention on another instance would remove it.
    const dir = path.join(ctx.mediaDir, ana.user.id);
    const stored = fs
      .readdirSync(dir)
      .filter((name) => !name.startsWith('.'))
      .map((name) => path.join(dir, name))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]!;
    fs.rmSync(stored);

    const entries = await archiveOf(ana);
    const entry = dataOf(entries).whatsapp.media.find((m) => m.messageId === shown.id)!;
    expect(entry).toMatchObject({ kept: false, archivePath: null });
    expect([...entries.keys()].some((name) => name.includes(shown.id))).toBe(false);
    // The others are all there, whole (yauzl checked each one's CRC).
    expect(entries.size).toBeGreaterThan(1);
  });

  it('downloads through the address its session asks for, with no token; refuses it forged, expired or once the session ended', async () => {
    expect((await post(ctx, '/api/account/export/archive-link', {})).statusCode).toBe(401);
    const asked = await post(ctx, '/api/account/export/archive-link', {}, { token: ana.token });
    expect(asked.statusCode, asked.body).toBe(200);
    const { url } = accountArchiveLinkSchema.parse(asked.json());
    expect(url).toMatch(/^\/api\/account\/export\/archive\?/);

    // A browser's download: no Authorization header.
    const downloaded = await get(ctx, url);
    expect(downloaded.statusCode).toBe(200);
    expect(dataOf(await unzip(downloaded.rawPayload)).account.id).toBe(ana.user.id);

    const refused = async (address: string) => {
      const res = await get(ctx, address, { language: 'en-US' });
      expect(res.statusCode, address).toBe(403);
      expect(res.json().message).toBe(message('en-US', 'account.archiveLinkInvalid'));
    };
    await refused(url.replace(/signature=[^&]+/, 'signature=AAAA'));
    // Someone else's session named in Ana's signed address.
    const other = await post(ctx, '/api/account/export/archive-link', {}, { token: bruno.token });
    const brunoSession = new URL(other.json().url, 'http://x').searchParams.get('session')!;
    await refused(url.replace(/session=[^&]+/, `session=${brunoSession}`));
    await refused('/api/account/export/archive?session=not-a-session&expires=1&signature=x');

    // Without a token or an address: nobody's data.
    const anonymous = await get(ctx, '/api/account/export/archive', { language: 'en-US' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe(message('en-US', 'errors.unauthorized'));

    // Signed out: the address of that session is worth nothing any more.
    const signedIn = await login(ctx, { identifier: ana.email, password: ana.password });
    const session = signedIn.json<{ token: string }>().token;
    const link = (
      await post(ctx, '/api/account/export/archive-link', {}, { token: session })
    ).json().url as string;
    expect((await get(ctx, link)).statusCode).toBe(200);
    expect((await post(ctx, '/api/logout', {}, { token: session })).statusCode).toBe(200);
    await refused(link);

    // Minutes later, the address has expired (Ana's own session is still alive).
    ctx.clock.advance(6 * 60_000);
    expect((await get(ctx, '/api/user', { token: ana.token })).statusCode).toBe(200);
    await refused(url);
  });

  it('removes the files with the conversation or the account, and only theirs', async () => {
    const anaDir = path.join(ctx.mediaDir, ana.user.id);
    const filesOf = (dir: string) =>
      fs
        .readdirSync(dir)
        .filter((name) => !name.startsWith('.'))
        .sort();
    const kept = await received(ana, { to: anaPhone, from: otherCustomer, media: await jpeg() });
    const before = filesOf(anaDir);
    // A new contact's conversation with two files.
    const newContact = '5511977775557@s.whatsapp.net';
    await received(ana, { to: anaPhone, from: newContact, media: await jpeg() });
    const doomed = await received(ana, { to: anaPhone, from: newContact, media: await jpeg() });
    expect(filesOf(anaDir).length).toBe(before.length + 2);

    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/whatsapp/conversations/${doomed.conversationId}`,
      headers: { authorization: `Bearer ${ana.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(filesOf(anaDir)).toEqual(before);
    // The other conversation's file is still served.
    const still = (await conversationDetail(ctx, ana, kept.conversationId)).messages.at(-1)!;
    expect((await ctx.app.inject({ method: 'GET', url: still.media!.url! })).statusCode).toBe(200);

    const brunoDir = path.join(ctx.mediaDir, bruno.user.id);
    expect(filesOf(brunoDir).length).toBeGreaterThan(0);
    const deleted = await post(
      ctx,
      '/api/account/delete',
      { password: bruno.password },
      { token: bruno.token },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(fs.existsSync(brunoDir)).toBe(false);
    expect(filesOf(anaDir)).toEqual(before);
  });
});
