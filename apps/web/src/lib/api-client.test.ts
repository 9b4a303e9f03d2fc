// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client';

describe('apiRequest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends the browser's time zone, so that agents tell the user's own time", async () => {
    const fetch = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    await apiRequest('/health');
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(new Headers(init.headers).get('X-Time-Zone')).toBe(zone);
  });
});
