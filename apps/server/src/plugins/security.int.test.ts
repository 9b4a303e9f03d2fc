import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestContext, NO_MONITOR } from '../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../test/factories';

/** The headers every API answer carries, whatever its status or route. */
const API_SECURITY_HEADERS = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-resource-policy',
  'cache-control',
];

function securityHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  return Object.fromEntries(API_SECURITY_HEADERS.map((name) => [name, res.headers[name]]));
}

/** A permissions policy as a map: feature → its allowlist. */
function permissions(res: LightMyRequestResponse): Map<string, string> {
  return new Map(
    String(res.headers['permissions-policy'] ?? '')
      .split(',')
      .filter((item) => item.trim())
      .map((item) => {
        const [feature = '', allowlist = ''] = item.trim().split('=');
        return [feature, allowlist];
      }),
  );
}

describe('security headers', () => {
  let ctx: TestContext;
  let dist: string;
  let token: string;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>ContrateIA</title>');
    ctx = await createTestApp({
      without: NO_MONITOR,
      webDistDir: dist,
      limits: { routes: UNLIMITED_ROUTES, chat: { points: 1000, durationSeconds: 60 } },
    });
    ({ token } = await registerAndLogin(ctx, { name: 'Ana' }));
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  // An API answer is about one user at one moment: no cache (browser, proxy, back/forward) keeps it.
  it('forbids storing any API answer, whatever its status', async () => {
    for (const res of [
      await get(ctx, '/api/health'),
      await get(ctx, '/api/user', { token }),
      await get(ctx, '/api/user'),
      await post(ctx, '/api/login', {}),
      await get(ctx, '/api/nothing-here'),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('sends a streamed chat reply with the headers of every other API answer', async () => {
    const json = await get(ctx, '/api/user', { token });
    const streamed = await ctx.app.inject({
      method: 'POST',
      url: '/api/chat/message',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      payload: JSON.stringify({ message: 'hello', agentName: 'guia' }),
    });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(securityHeaders(streamed)).toEqual({
      ...securityHeaders(json),
      // Proxies must not compress or buffer the stream either.
      'cache-control': 'no-store, no-transform',
    });
    expect(streamed.body).toContain('event: done');
  });

  it('forbids framing pages in both the old header and the policy', async () => {
    const page = await get(ctx, '/login');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('denies pages the browser features the app does not use, and keeps the clipboard write', async () => {
    const policy = permissions(await get(ctx, '/login'));
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
      expect(policy.get(feature), feature).toBe('()');
    }
    // The chat's Copy button writes the reply to the clipboard.
    expect(policy.get('clipboard-write')).toBe('(self)');
  });
});
