// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRealtimeClient, type RealtimeClient, type RealtimeStatus } from '@/lib/realtime';
import { clearSession, saveSession } from '@/lib/session';
import { errorResponse, startFakeServer } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';
import { startSocketServer } from '@/test/socket-server';

function waitForStatus(client: RealtimeClient, wanted: RealtimeStatus): Promise<void> {
  return new Promise((resolve) => {
    if (client.getStatus() === wanted) return resolve();
    const stop = client.onStatus(() => {
      if (client.getStatus() !== wanted) return;
      stop();
      resolve();
    });
  });
}

function nextReady(client: RealtimeClient): Promise<{ phone: string }> {
  return new Promise((resolve) => {
    const stop = client.subscribe('whatsapp:ready', (payload) => {
      stop();
      resolve(payload);
    });
  });
}

describe('the realtime client', () => {
  let server: Awaited<ReturnType<typeof startSocketServer>>;
  const cleanups: (() => unknown)[] = [];

  beforeEach(async () => {
    server = await startSocketServer();
    server.valid.add('token-a');
    saveSession({ token: 'token-a', user: userFixture() });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await server.close();
  });

  function client(): RealtimeClient {
    return createRealtimeClient({ url: server.url });
  }

  function keepOpen(realtime: RealtimeClient) {
    const release = realtime.retain();
    cleanups.push(release);
    return release;
  }

  it('connects with the stored token while something listens, joins the room, and closes after', async () => {
    const realtime = client();
    expect(realtime.getStatus()).toBe('idle');
    const joined = server.nextJoin();
    let arrive: (phone: string) => void = () => {};
    const arrived = new Promise<string>((resolve) => (arrive = resolve));
    const stop = realtime.subscribe('whatsapp:ready', ({ phone }) => arrive(phone));
    expect(realtime.getStatus()).toBe('connecting');
    const { token, socket } = await joined;
    expect(token).toBe('token-a');
    expect(realtime.getStatus()).toBe('connected');

    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    server.emitTo('token-a', '5511');
    expect(await arrived).toBe('5511');
    stop();
    expect(realtime.getStatus()).toBe('idle');
    await gone;
  });

  it('opens nothing without a signed-in user', () => {
    clearSession();
    const realtime = client();
    keepOpen(realtime);
    expect(realtime.getStatus()).toBe('idle');
  });

  it('reconnects after the server restarts, and joins its room again', async () => {
    const realtime = client();
    const joined = server.nextJoin();
    keepOpen(realtime);
    await joined;
    const lost = waitForStatus(realtime, 'reconnecting');
    await server.close();
    await lost;

    server = await startSocketServer(server.port);
    server.valid.add('token-a');
    const rejoined = server.nextJoin();
    await rejoined;
    await waitForStatus(realtime, 'connected');
    const ready = nextReady(realtime);
    server.emitTo('token-a', '21');
    expect(await ready).toEqual({ phone: '21' });
  });

  it('authenticates again at once when the token changes (a role switch), and closes on sign-out', async () => {
    server.valid.add('token-b');
    const realtime = client();
    const first = server.nextJoin();
    keepOpen(realtime);
    const old = await first;
    const oldGone = new Promise((resolve) => old.socket.once('disconnect', resolve));

    const second = server.nextJoin();
    saveSession({ token: 'token-b', user: userFixture() });
    expect((await second).token).toBe('token-b');
    await oldGone;
    await waitForStatus(realtime, 'connected');

    const newGone = new Promise((resolve) =>
      server.connections.at(-1)!.socket.once('disconnect', resolve),
    );
    clearSession();
    expect(realtime.getStatus()).toBe('idle');
    await newGone;
  });

  it('after the server drops the socket, asks the API: a 401 ends the session and it stays closed', async () => {
    const api = startFakeServer();
    const asked = new Promise<void>((resolve) =>
      api.on('GET /api/user', () => {
        resolve();
        return errorResponse(401, { message: 'Unauthorized' });
      }),
    );
    const realtime = client();
    const joined = server.nextJoin();
    keepOpen(realtime);
    const { socket } = await joined;
    server.valid.delete('token-a');
    socket.disconnect(true);
    await asked;
    await waitForStatus(realtime, 'idle');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('after the server drops the socket while the session holds, connects again', async () => {
    const api = startFakeServer();
    api.on('GET /api/user', () => ({ success: true, user: userFixture() }));
    const realtime = client();
    const joined = server.nextJoin();
    keepOpen(realtime);
    const { socket } = await joined;
    const rejoined = server.nextJoin();
    socket.disconnect(true);
    expect((await rejoined).token).toBe('token-a');
    expect(api.calls()).toEqual(['GET /api/user']);
  });

  it('tries again later when the server could not check the token', async () => {
    const api = startFakeServer();
    server.failures.count = 2;
    const realtime = createRealtimeClient({ url: server.url, retryMs: 10 });
    const joined = server.nextJoin();
    keepOpen(realtime);
    expect((await joined).token).toBe('token-a');
    expect(server.failures.count).toBe(0);
    // Not a question of the session: the API was not asked.
    expect(api.calls()).toEqual([]);
  });

  it('gives up on a token the server keeps refusing while the API takes it, until the token changes', async () => {
    const api = startFakeServer();
    api.on('GET /api/user', () => ({ success: true, user: userFixture() }));
    server.valid.delete('token-a');
    const realtime = client();
    keepOpen(realtime);
    await waitForStatus(realtime, 'offline');
    expect(api.calls()).toEqual(['GET /api/user', 'GET /api/user']);

    server.valid.add('token-c');
    const joined = server.nextJoin();
    saveSession({ token: 'token-c', user: userFixture() });
    expect((await joined).token).toBe('token-c');
  });
});
