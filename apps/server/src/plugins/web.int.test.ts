import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext, NO_MONITOR } from '../../test/helpers';
import { message } from '../../test/factories';

const INDEX_HTML =
  '<!doctype html><html><head><meta name="brand-domains" content="__BRAND_DOMAINS__"></head>' +
  '<body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script></body></html>';
const APP_JS = `console.log(${JSON.stringify('ContrateIA '.repeat(200))});\n`;
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8"/></svg>';
const BRAND_DOMAINS = 'pt-BR=exemplo.com.br,en-US=example.com,es-ES=example.com';

/** A web build as Vite leaves it: index.html, hashed assets with their .gz and .br, public files. */
function makeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), APP_JS);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(APP_JS));
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(APP_JS));
  fs.writeFileSync(path.join(dir, 'favicon.svg'), FAVICON);
  // The real build precompresses index.html too; those copies hold the unfilled template.
  fs.writeFileSync(path.join(dir, 'index.html.gz'), zlib.gzipSync(INDEX_HTML));
  fs.writeFileSync(path.join(dir, 'index.html.br'), zlib.brotliCompressSync(INDEX_HTML));
  return dir;
}

/** The body of a response, decoded as a browser would from its content-encoding. */
function decoded(res: { rawPayload: Buffer; headers: Record<string, unknown> }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(res.rawPayload).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.rawPayload.toString('utf8');
}

/** The API's 404, in the default language (these requests name none). */
function expectJson404(res: {
  statusCode: number;
  headers: Record<string, unknown>;
  json: () => unknown;
}) {
  expect(res.statusCode).toBe(404);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ success: false, message: message('pt-BR', 'errors.notFound') });
}

const HEALTH = {
  status: 'ok',
  database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
  version: 'test',
};

describe('web app served with a build', () => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = makeDist();
    ctx = await createTestApp({
      without: NO_MONITOR,
      webDistDir: dist,
      brandDomains: BRAND_DOMAINS,
    });
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  /** A GET as a browser sends it, accepting `acceptEncoding` when given. */
  const getPath = (url: string, acceptEncoding?: string) =>
    ctx.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  describe('hashed assets', () => {
    it('sends the brotli file to a client that accepts br, cached for a year', async () => {
      const res = await getPath('/assets/app-abc123.js', 'gzip, deflate, br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.rawPayload).toEqual(
        fs.readFileSync(path.join(dist, 'assets', 'app-abc123.js.br')),
      );
      expect(decoded(res)).toBe(APP_JS);
      expect(String(res.headers['content-type'])).toMatch(/javascript/);
      const cache = String(res.headers['cache-control']);
      expect(cache).toContain('immutable');
      expect(cache).toContain('max-age=31536000');
      expect(cache).toContain('public');
    });

    it('sends the gzip file to a client that accepts only gzip', async () => {
      const res = await getPath('/assets/app-abc123.js', 'gzip');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(decoded(res)).toBe(APP_JS);
      expect(String(res.headers['cache-control'])).toContain('immutable');
    });

    it('sends the plain file to a client that accepts no encoding', async () => {
      const res = await getPath('/assets/app-abc123.js', 'identity');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(APP_JS);
    });
  });

  it('serves public files with a short cache', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^image\/svg\+xml/);
    expect(decoded(res)).toBe(FAVICON);
    const cache = String(res.headers['cache-control']);
    expect(cache).toContain('max-age=300');
    expect(cache).not.toContain('immutable');
  });

  describe('the page', () => {
    const expectPage = (res: Awaited<ReturnType<TestContext['app']['inject']>>) => {
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
      // Never kept: Back after a sign-out must not show a signed-in page from the cache.
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toEqual(
        expect.stringContaining("script-src 'self'"),
      );
      const html = decoded(res);
      expect(html).toContain(`<meta name="brand-domains" content="${BRAND_DOMAINS}">`);
      expect(html).not.toContain('__BRAND_DOMAINS__');
      expect(html).toContain('<div id="root"></div>');
      return html;
    };

    it('answers GET / with index.html, its brand domains filled in', async () => {
      expectPage(await ctx.app.inject({ method: 'GET', url: '/' }));
    });

    it('answers any other path with the same page, for the router to take', async () => {
      expectPage(await ctx.app.inject({ method: 'GET', url: '/some/where?x=1' }));
      expectPage(await ctx.app.inject({ method: 'GET', url: '/login' }));
      expectPage(await ctx.app.inject({ method: 'GET', url: '/guia' }));
    });

    it('answers /index.html with the filled page too, never the raw template', async () => {
      expectPage(await getPath('/index.html'));
      expectPage(await getPath('/index.html', 'br'));
      expectPage(await getPath('/index.html', 'gzip'));
      expectPage(await getPath('/index.html.br'));
    });

    it('compresses the page for clients that accept it', async () => {
      const br = await getPath('/', 'gzip, br');
      expect(br.headers['content-encoding']).toBe('br');
      expectPage(br);
      const gzip = await getPath('/x', 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expectPage(gzip);
      expect(String(gzip.headers.vary)).toMatch(/accept-encoding/i);
    });

    it('forbids framing', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/' });
      expect(res.headers['content-security-policy']).toEqual(
        expect.stringContaining("frame-ancestors 'none'"),
      );
    });
  });

  describe('what is not the page', () => {
    it('answers unknown /api paths with the JSON 404', async () => {
      expectJson404(await ctx.app.inject({ method: 'GET', url: '/api/unknown' }));
      expectJson404(await ctx.app.inject({ method: 'GET', url: '/api/unknown/deeper?x=1' }));
      expectJson404(await ctx.app.inject({ method: 'GET', url: '/api' }));
    });

    it('answers a missing hashed asset with a 404, not the page', async () => {
      expectJson404(await ctx.app.inject({ method: 'GET', url: '/assets/missing-123.js' }));
    });

    it('answers other methods on unknown paths with the JSON 404', async () => {
      expectJson404(await ctx.app.inject({ method: 'POST', url: '/unknown', payload: { a: 1 } }));
      expectJson404(await ctx.app.inject({ method: 'DELETE', url: '/some/where' }));
    });

    it('still answers the API', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(HEALTH);
    });
  });
});

describe('without a web build', () => {
  let ctx: TestContext;
  const missing = path.join(os.tmpdir(), 'contrateia-no-such-dist');
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, webDistDir: missing });
  });
  afterAll(async () => ctx?.close());

  it('answers the API', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(HEALTH);
  });

  it('answers every other path with the JSON 404', async () => {
    expectJson404(await ctx.app.inject({ method: 'GET', url: '/' }));
    expectJson404(await ctx.app.inject({ method: 'GET', url: '/some/where?x=1' }));
    expectJson404(await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' }));
    expectJson404(await ctx.app.inject({ method: 'GET', url: '/api/unknown' }));
    expectJson404(await ctx.app.inject({ method: 'POST', url: '/unknown' }));
  });

  it('says in the log that there is no build to serve', () => {
    const warnings = ctx.logs
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.msg.startsWith('No web build'));
    expect(warnings).toEqual([
      expect.objectContaining({
        level: 40,
        msg: `No web build at ${missing}; run \`npm run build\` to serve the web app.`,
      }),
    ]);
  });
});
