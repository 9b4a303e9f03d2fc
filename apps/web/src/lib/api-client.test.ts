// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userFixture } from '@/test/fixtures';
import { getToken, saveSession } from './session';
import { apiRequest, ApiError } from './api-client';

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

  it('ends the session on a 401 to the stored token, and not on one to a token replaced meanwhile', async () => {
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const unauthorized = () => new Response('{"success":false,"message":"x"}', { status: 401 });

    // Sent with the old token; a role switch stores a new one before the 401 comes back.
    saveSession({ token: 'token-old', user: userFixture() });
    const old = apiRequest('/user');
    saveSession({ token: 'token-new', user: userFixture() });
    answer(unauthorized());
    await expect(old).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBe('token-new');

    const current = apiRequest('/user');
    answer(unauthorized());
    await expect(current).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
  });
});
