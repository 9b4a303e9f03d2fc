import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@contrateia/shared';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { users } from '@/features/auth/auth.table';
import { agents as agentsTable } from './agents.table';

describe('agents: catalogue and hiring', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof registerAndLogin>>;
  let user: Awaited<ReturnType<typeof registerAndLogin>>;

  beforeAll(async () => {
    ctx = await createTestApp({ limits: { routes: UNLIMITED_ROUTES } });
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' }); // the first account is the admin
    user = await registerAndLogin(ctx, { name: 'Bruno' });
  });
  afterAll(async () => ctx.close());

  const names = (agents: Agent[]) => agents.map((a) => a.name).sort();

  it('seeds the five agents, and every new account has guia hired', async () => {
    const rows = await ctx.database.db.select().from(agentsTable);
    expect(rows.map((r) => r.name).sort()).toEqual(['administrador', 'assistente', 'auxtrat', 'guia', 'indirect']);
    for (const row of rows) {
      expect(row.displayName['pt-BR'] && row.displayName['en-US'] && row.displayName['es-ES']).toBeTruthy();
      expect(row.configuration.welcomeMessage['es-ES']).toBeTruthy();
      expect(row.configuration.instructions.length).toBeGreaterThan(20);
    }
    const res = await get(ctx, '/api/agents/user', { token: user.token, language: 'en-US' });
    expect(res.statusCode).toBe(200);
    const hired = res.json<{ agents: Agent[] }>().agents;
    expect(names(hired)).toEqual(['guia']);
    expect(hired[0]).toMatchObject({ isHired: true, isActive: true });
    expect(Object.keys(hired[0]!).sort()).toEqual(['configuration', 'createdAt', 'description', 'displayName', 'id', 'isActive', 'isHired', 'name']);
    // Instructions and knowledge stay on the server.
    expect(Object.keys(hired[0]!.configuration)).toEqual(['welcomeMessage']);
  });

  it('gives texts in the caller language', async () => {
    const [pt, es] = await Promise.all([
      get(ctx, '/api/agents/user', { token: user.token, language: 'pt-BR' }),
      get(ctx, '/api/agents/user', { token: user.token, language: 'es-ES' }),
    ]);
    const guiaPt = pt.json<{ agents: Agent[] }>().agents[0]!;
    const guiaEs = es.json<{ agents: Agent[] }>().agents[0]!;
    expect(guiaPt.configuration.welcomeMessage).not.toBe(guiaEs.configuration.welcomeMessage);
  });

  it('offers administrador to admins only', async () => {
    const forUser = await get(ctx, '/api/agents/available', { token: user.token });
    expect(names(forUser.json<{ agents: Agent[] }>().agents)).toEqual(['assistente', 'auxtrat', 'indirect']);
    const forAdmin = await get(ctx, '/api/agents/available', { token: admin.token });
    expect(names(forAdmin.json<{ agents: Agent[] }>().agents)).toEqual(['administrador', 'assistente', 'auxtrat', 'indirect']);
    for (const agent of forAdmin.json<{ agents: Agent[] }>().agents) expect(agent.isHired).toBe(false);
  });

  it('hires an agent, idempotently, moving it from available to hired', async () => {
    const available = (await get(ctx, '/api/agents/available', { token: user.token })).json<{ agents: Agent[] }>().agents;
    const auxtrat = available.find((a) => a.name === 'auxtrat')!;
    const first = await post(ctx, '/api/agents/hire', { agentId: auxtrat.id }, { token: user.token, language: 'en-US' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, agent: { name: 'auxtrat', isHired: true } });
    const again = await post(ctx, '/api/agents/hire', { agentId: auxtrat.id }, { token: user.token });
    expect(again.statusCode).toBe(200);
    const hired = (await get(ctx, '/api/agents/user', { token: user.token })).json<{ agents: Agent[] }>().agents;
    expect(names(hired)).toEqual(['auxtrat', 'guia']);
    const left = (await get(ctx, '/api/agents/available', { token: user.token })).json<{ agents: Agent[] }>().agents;
    expect(names(left)).toEqual(['assistente', 'indirect']);
  });

  it('refuses unknown, inactive and admin-only agents', async () => {
    const unknown = await post(ctx, '/api/agents/hire', { agentId: '00000000-0000-4000-8000-000000000000' }, { token: user.token, language: 'en-US' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'Agent not found' });

    const [administrador] = await ctx.database.db.select().from(agentsTable).where(eq(agentsTable.name, 'administrador'));
    const forbidden = await post(ctx, '/api/agents/hire', { agentId: administrador!.id }, { token: user.token });
    expect(forbidden.statusCode).toBe(403);
    expect((await post(ctx, '/api/agents/hire', { agentId: administrador!.id }, { token: admin.token })).statusCode).toBe(200);

    // The catalogue is cached: an app started after the change sees it (as after an admin edit).
    await ctx.database.db.update(agentsTable).set({ isActive: false }).where(eq(agentsTable.name, 'indirect'));
    const second = await createTestApp({ database: ctx.database, limits: { routes: UNLIMITED_ROUTES } });
    try {
      const someone = await registerAndLogin(second);
      const available = (await get(second, '/api/agents/available', { token: someone.token })).json<{ agents: Agent[] }>().agents;
      expect(names(available)).not.toContain('indirect');
      const [indirect] = await ctx.database.db.select().from(agentsTable).where(eq(agentsTable.name, 'indirect'));
      const inactive = await post(second, '/api/agents/hire', { agentId: indirect!.id }, { token: someone.token, language: 'en-US' });
      expect(inactive.statusCode).toBe(400);
      expect(inactive.json().message).toBe('This agent is not available right now');
    } finally {
      await second.close();
      await ctx.database.db.update(agentsTable).set({ isActive: true }).where(eq(agentsTable.name, 'indirect'));
    }
  });

  it('refuses hiring to an account made for a single agent (403), and offers it nothing', async () => {
    const single = await registerAndLogin(ctx, { name: 'Solo' });
    await ctx.database.db.update(users).set({ singleAgentName: 'guia' }).where(eq(users.id, single.user.id));
    const available = await get(ctx, '/api/agents/available', { token: single.token });
    expect(available.json<{ agents: Agent[] }>().agents).toEqual([]);
    const res = await post(ctx, '/api/agents/hire', { agentId: 'auxtrat' }, { token: single.token, language: 'en-US' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account works with one agent only');
  });

  it('answers 400 for a missing agentId and 401 without a token', async () => {
    const missing = await post(ctx, '/api/agents/hire', {}, { token: user.token, language: 'en-US' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.agentId).toBe('Agent is required');
    expect((await get(ctx, '/api/agents/user')).statusCode).toBe(401);
    expect((await post(ctx, '/api/agents/hire', { agentId: 'guia' })).statusCode).toBe(401);
  });
});
