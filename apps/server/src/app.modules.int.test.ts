import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Agent } from '@contrateia/shared';
import { buildApp } from './app';
import { createImagesDir, createTestApp, createTestDatabase } from '../test/helpers';
import { get, registerAndLogin, UNLIMITED_ROUTES } from '../test/factories';

describe('feature modules', () => {
  it('refuses to build an app that leaves out a module another one depends on, naming both', async () => {
    const database = await createTestDatabase();
    const images = createImagesDir();
    try {
      await expect(
        buildApp({
          database,
          secret: randomBytes(32).toString('hex'),
          logger: pino({ level: 'silent' }),
          version: 'test',
          imagesDir: images.dir,
          brandDomains: 'pt-BR=contrateia.com.br',
          publicUrl: 'https://contrateia.test',
          webDistDir: '/nonexistent',
          // The monitor checks WhatsApp.
          without: ['whatsapp'],
        }),
      ).rejects.toThrow("The dependency 'whatsapp' of plugin 'monitor' is not registered");
    } finally {
      await database.drop();
      await images.remove();
    }
  });

  it('runs without the optional modules: a new account still gets its default agent, and their routes are not there', async () => {
    const ctx = await createTestApp({
      without: ['monitor', 'admin', 'images', 'whatsapp'],
      limits: { routes: UNLIMITED_ROUTES },
    });
    try {
      const account = await registerAndLogin(ctx, { name: 'Ana' });
      const hired = await get(ctx, '/api/agents/user', { token: account.token });
      expect(hired.statusCode).toBe(200);
      expect(hired.json<{ agents: Agent[] }>().agents.map((agent) => agent.name)).toEqual(['guia']);
      const status = await get(ctx, '/api/whatsapp/status', { token: account.token });
      expect(status.statusCode).toBe(404);
    } finally {
      await ctx.close();
    }
  });
});
