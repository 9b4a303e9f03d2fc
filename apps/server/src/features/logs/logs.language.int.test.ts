import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminAgent,
  AdminAuditResponse,
  CreateAgentInput,
  Language,
  ListLogsResponse,
  LogEntry,
} from '@contrateia/shared';
import { eventually } from '../../../test/eventually';
import {
  DEFAULT_PASSWORD,
  get,
  login,
  post,
  registerAndLogin,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { makeImage, uploaded } from '../../../test/images';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/**
 * The Logs page speaks the admin's language. The
 * server answers each event's message translated into the caller's language (the key stays in
 * `context.event`); targets are named, an admin change says what changed, and the search finds
 * the translated words, accents aside.
 */
describe('the stored log in the admin’s language', () => {
  let ctx: TestContext;
  let admin: Account;

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      logs: { writer: { flushMs: 20 } },
    });
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
  });

  afterAll(async () => ctx?.close());

  async function logs(
    query: Record<string, string>,
    language: Language = 'pt-BR',
  ): Promise<LogEntry[]> {
    const res = await get(ctx, `/api/logs?${new URLSearchParams({ limit: '200', ...query })}`, {
      token: admin.token,
      language,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ListLogsResponse>().logs;
  }

  async function stored(
    query: Record<string, string>,
    language: Language = 'pt-BR',
  ): Promise<LogEntry> {
    let found: LogEntry[] = [];
    await eventually(
      async () => (found = await logs(query, language)).length > 0,
      `an event for ${JSON.stringify(query)}`,
    );
    return found[0]!;
  }

  it('shows a sign-in as "Entrou" in pt-BR, "Signed in" in en-US, with its key', async () => {
    expect(
      (await login(ctx, { identifier: admin.user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
    const signIn = await stored({ search: `auth.sign_in ${admin.user.id}` });
    expect(signIn).toMatchObject({ message: 'Entrou', context: { event: 'auth.sign_in' } });
    expect((await stored({ search: `auth.sign_in ${admin.user.id}` }, 'en-US')).message).toBe(
      'Signed in',
    );
    expect((await stored({ search: `auth.sign_in ${admin.user.id}` }, 'es-ES')).message).toBe(
      'Inició sesión',
    );
    // Never a raw key.
    expect(signIn.message).not.toMatch(/^[a-z]+\.[a-z_.]+$/);
  });

  it('names the image an admin edited and says what changed, old → new, with the field in words; found by its Portuguese words', async () => {
    const imageId = await uploaded(ctx, {
      token: admin.token,
      file: await makeImage('png'),
      name: 'praia.png',
      type: 'image/png',
      fields: { title: 'Praia velha' },
    });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/images/${imageId}`,
      payload: { title: 'Praia' },
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const change = await stored({ search: `admin.image.update ${imageId}` });
    expect(change).toMatchObject({
      message: 'Administrador alterou a imagem “Praia”',
      changes: [{ field: 'title', name: 'título', from: 'Praia velha', to: 'Praia' }],
      context: { event: 'admin.image.update', target: imageId },
    });
    expect((await stored({ search: `admin.image.update ${imageId}` }, 'en-US')).message).toBe(
      'Admin changed the image “Praia”',
    );
    for (const search of ['alterou imagem praia', 'ALTEROU A IMAGEM', 'título']) {
      expect(
        (await logs({ search })).map((l) => l.id),
        search,
      ).toContain(change.id);
    }
  });

  it("says an AI key changed without its value, and the model's old → new", async () => {
    const key = 'sk-language-test-0123456789';
    const first = {
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'modelo-a',
      apiKey: key,
      timeoutMs: 5000,
    };
    expect((await post(ctx, '/api/admin/ai', first, { token: admin.token })).statusCode).toBe(200);
    ctx.clock.advance(1000);
    const second = { ...first, model: 'modelo-b', apiKey: `${key}-new` };
    expect((await post(ctx, '/api/admin/ai', second, { token: admin.token })).statusCode).toBe(200);
    let changes: LogEntry[] = [];
    await eventually(
      async () => (changes = await logs({ search: 'admin.ai.update' })).length === 2,
      'both AI changes stored',
    );
    expect(changes[0]).toMatchObject({ message: 'Administrador alterou as configurações de IA' });
    expect(changes[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'model', name: 'modelo', from: 'modelo-a', to: 'modelo-b' },
        { field: 'apiKey', name: 'chave da API', from: null, to: null },
      ]),
    );
    expect(JSON.stringify(changes)).not.toContain(key);
  });

  it('names a deleted agent in the log and in the audit by the name it had', async () => {
    // Made like guia, under a name of its own.
    const guia = (await get(ctx, '/api/admin/agents', { token: admin.token }))
      .json<{ agents: AdminAgent[] }>()
      .agents.find((agent) => agent.name === 'guia')!;
    const { instructions, welcomeMessage, model } = guia.configuration;
    const input: CreateAgentInput = {
      name: 'loja-da-rua',
      displayName: {
        'pt-BR': 'Loja da Rua',
        'en-US': 'Street Shop',
        'es-ES': 'Tienda de la Calle',
      },
      description: guia.description,
      configuration: { instructions, welcomeMessage, model, knowledge: [] },
    };
    const created = await post(ctx, '/api/admin/agents', input, { token: admin.token });
    expect(created.statusCode, created.body).toBe(200);
    const agentId = created.json<{ agent: { id: string } }>().agent.id;
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/admin/agents/${agentId}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const audit = (
      await get(ctx, '/api/admin/audit?limit=50', { token: admin.token, language: 'pt-BR' })
    ).json<AdminAuditResponse>();
    const entry = audit.entries.find((e) => e.action === 'agent.delete' && e.target === agentId);
    expect(entry?.targetName).toBe('Loja da Rua');
    const inSpanish = (
      await get(ctx, '/api/admin/audit?limit=50', { token: admin.token, language: 'es-ES' })
    ).json<AdminAuditResponse>();
    expect(
      inSpanish.entries.find((e) => e.action === 'agent.delete' && e.target === agentId)
        ?.targetName,
    ).toBe('Tienda de la Calle');

    const logged = await stored({ search: `admin.agent.delete ${agentId}` });
    expect(logged.message).toBe('Administrador excluiu o agente “Loja da Rua”');
  });

  it('names a deleted account in the audit, and in the log, by the name it had', async () => {
    const member = await registerAndLogin(ctx, { name: 'Carla Conta' });
    expect(
      (
        await post(
          ctx,
          `/api/admin/users/${member.user.id}/status`,
          { isActive: false },
          { token: admin.token },
        )
      ).statusCode,
    ).toBe(200);
    // A second apart: the test clock stands still otherwise, and the two would share a time.
    ctx.clock.advance(1000);
    expect(
      (
        await post(
          ctx,
          `/api/admin/users/${member.user.id}/status`,
          { isActive: true },
          { token: admin.token },
        )
      ).statusCode,
    ).toBe(200);
    const fresh = (await login(ctx, { identifier: member.email, password: member.password })).json<{
      token: string;
    }>().token;
    expect(
      (await post(ctx, '/api/account/delete', { password: member.password }, { token: fresh }))
        .statusCode,
    ).toBe(200);
    const audit = (
      await get(ctx, '/api/admin/audit?limit=50', { token: admin.token })
    ).json<AdminAuditResponse>();
    const entries = audit.entries.filter(
      (e) => e.action === 'user.status' && e.target === member.user.id,
    );
    expect(entries.map((e) => e.targetName)).toEqual(['Carla Conta', 'Carla Conta']);
    let logged: LogEntry[] = [];
    await eventually(
      async () =>
        (logged = await logs({ search: `admin.user.status ${member.user.id}` })).length === 2,
      'both changes stored',
    );
    expect(logged.map((l) => l.message)).toEqual(
      Array(2).fill('Administrador alterou o status do usuário “Carla Conta”'),
    );
    expect(logged.map((l) => l.changes)).toEqual([
      [{ field: 'isActive', name: 'status', from: 'não', to: 'sim' }],
      [{ field: 'isActive', name: 'status', from: 'sim', to: 'não' }],
    ]);
  });

  it('names a deleted image in the audit by the title it had', async () => {
    const imageId = await uploaded(ctx, {
      token: admin.token,
      file: await makeImage('png'),
      name: 'farol.png',
      type: 'image/png',
      fields: { title: 'Farol' },
    });
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/images/${imageId}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const audit = (
      await get(ctx, '/api/admin/audit?limit=50', { token: admin.token, language: 'pt-BR' })
    ).json<AdminAuditResponse>();
    expect(
      audit.entries.find((e) => e.action === 'image.delete' && e.target === imageId)?.targetName,
    ).toBe('Farol');
    expect((await stored({ search: `admin.image.delete ${imageId}` })).message).toBe(
      'Administrador excluiu a imagem “Farol”',
    );
  });
});
