import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { eventually } from '../../../test/eventually';
import { get, message, registerAndLogin } from '../../../test/factories';

const TOKEN = 'prometheus-scraper-token-1234';

function scrape(ctx: TestContext, authorization?: string) {
  return ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization === undefined ? {} : { authorization },
  });
}

/** The value of one series of the exposition text, e.g. `http_requests_total{method="GET",…}`. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let plain: TestContext;
  let scraped: TestContext;
  let other: TestContext;

  beforeAll(async () => {
    plain = await createTestApp();
    other = await createTestApp({ metricsToken: TOKEN });
    // Last: it samples five times a second, which slows the start of an app made after it.
    scraped = await createTestApp({ metricsToken: TOKEN, monitor: { intervalMs: 200 } });
  });

  afterAll(async () => {
    await plain?.close();
    await scraped?.close();
    await other?.close();
  });

  it('does not exist without METRICS_TOKEN: 404, as any unknown path', async () => {
    const res = await scrape(plain, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('process_cpu');
  });

  it("answers 401 without the token, with a wrong one or another scheme, in the caller's language", async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      TOKEN,
      'Bearer ',
    ]) {
      const res = await scraped.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: {
          'accept-language': 'es-ES',
          ...(authorization === undefined ? {} : { authorization }),
        },
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({
        success: false,
        message: message('es-ES', 'errors.unauthorized'),
      });
    }
  });

  it('answers the metrics in Prometheus text format with the right token', async () => {
    const admin = await registerAndLogin(scraped, { name: 'Ana Admin' });
    for (let i = 0; i < 3; i += 1) expect((await get(scraped, '/api/health')).statusCode).toBe(200);
    expect((await get(scraped, '/api/agents/user', { token: admin.token })).statusCode).toBe(200);
    expect((await get(scraped, '/api/no-such-thing')).statusCode).toBe(404);
    // The monitor's first sample, which the database and WhatsApp figures come from.
    await eventually(
      async () =>
        (await get(scraped, '/api/monitor/status', { token: admin.token })).statusCode === 200,
      'sampled',
      20_000,
    );

    const res = await scrape(scraped, `bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body;
    // Node's own: process and event loop.
    expect(valueOf(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    // Requests by route pattern, never by path; a path no route has is one series.
    expect(
      valueOf(text, 'http_requests_total{method="GET",route="/api/health",status_code="200"}'),
    ).toBe(3);
    expect(
      valueOf(text, 'http_requests_total{method="GET",route="unmatched",status_code="404"}'),
    ).toBe(1);
    expect(text).toMatch(
      /^http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/api\/health",status_code="200"\} \d+$/m,
    );
    expect(
      valueOf(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/health",status_code="200"}',
      ),
    ).toBe(3);
    // What the monitor found.
    expect(valueOf(text, 'contrateia_database_ping_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'contrateia_whatsapp_accounts{state="linked"}')).toBe(0);
    expect(valueOf(text, 'contrateia_whatsapp_accounts{state="connected"}')).toBe(0);
    expect(valueOf(text, 'contrateia_realtime_sockets')).toBe(0);
    expect(valueOf(text, 'contrateia_media_files')).toBe(0);
    expect(valueOf(text, 'contrateia_media_bytes')).toBe(0);
    expect(valueOf(text, 'contrateia_service_status{service="database",status="up"}')).toBe(1);
    expect(valueOf(text, 'contrateia_service_status{service="database",status="down"}')).toBe(0);
  });

  it("keeps each app's figures apart (a registry per app)", async () => {
    const res = await scrape(other, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(
      valueOf(res.body, 'http_requests_total{method="GET",route="/api/health",status_code="200"}'),
    ).toBeUndefined();
  });
});
