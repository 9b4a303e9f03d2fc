import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext, NO_MONITOR } from '../test/helpers';
import { createGate, startFakeOpenAI, type FakeOpenAI } from '../test/fake-openai';
import { registerAndLogin } from '../test/factories';

/**
 * Slow clients against a real listening server, with the timeouts scaled down: a whole request
 * must arrive within REQUEST_MS and its headers within HEADERS_MS, as 60 s and 20 s do in
 * production. Every wait is on an event (a socket's close, a stream's bytes), never a fixed time.
 */
const REQUEST_MS = 600;
const HEADERS_MS = 300;
/** One byte every this long: a client ten times slower than any timeout (10 s a byte at full scale). */
const TRICKLE_MS = 50;

type Trickled = { response: string; bytesWritten: number; closedAt: number };

/** Every connection a case opened: a case that fails leaves none behind for the next. */
const opened = new Set<net.Socket>();

/**
 * Opens a connection, sends `head` at once, then `rest` one byte every TRICKLE_MS (nothing more
 * when it is empty); resolves when the server closes the connection, with what it answered.
 */
function trickle(port: number, head: string, rest: string): Promise<Trickled> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    opened.add(socket);
    let response = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (response += chunk));
    socket.on('error', () => {}); // a reset after the answer is a close like any other
    socket.once('connect', () => {
      if (head) socket.write(head);
      if (!rest) return;
      timer = setInterval(() => {
        if (sent >= rest.length)
          return reject(new Error('the whole request went through: nothing bounded it'));
        socket.write(rest[sent]!);
        sent += 1;
      }, TRICKLE_MS);
    });
    socket.once('close', () => {
      opened.delete(socket);
      clearInterval(timer);
      resolve({ response, bytesWritten: sent, closedAt: performance.now() });
    });
  });
}

describe('slow clients', () => {
  let ctx: TestContext;
  let port: number;
  let ai: FakeOpenAI;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['ok'] });
    ctx = await createTestApp({
      without: NO_MONITOR,
      timeouts: { requestMs: REQUEST_MS, headersMs: HEADERS_MS },
      ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 60_000 },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as net.AddressInfo).port;
  });
  afterEach(() => {
    for (const socket of opened) socket.destroy();
  });
  afterAll(async () => {
    await ctx.close();
    await ai.close();
  });

  it(
    'closes twenty connections that trickle a request body, each with a 408',
    { timeout: 10_000 },
    async () => {
      const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(200) });
      const head =
        'POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => trickle(port, head, body)),
      );
      for (const result of results) {
        expect(result.response).toMatch(/^HTTP\/1\.1 408 /);
        expect(result.bytesWritten).toBeLessThan(body.length);
        // Not before the request's time was up.
        expect(result.closedAt - started).toBeGreaterThanOrEqual(REQUEST_MS - 50);
      }
    },
  );

  it(
    'closes twenty connections that trickle their headers, or send nothing at all',
    { timeout: 10_000 },
    async () => {
      const headers =
        'GET /api/health HTTP/1.1\r\nHost: localhost\r\n' +
        'X-Slow: ' +
        'a'.repeat(200) +
        '\r\n\r\n';
      const results = await Promise.all([
        ...Array.from({ length: 19 }, () => trickle(port, '', headers)),
        trickle(port, '', ''),
      ]);
      for (const result of results) {
        expect(result.response).toMatch(/^HTTP\/1\.1 408 /);
        expect(result.bytesWritten).toBeLessThan(headers.length);
      }
    },
  );

  // requestTimeout bounds receiving the request, not answering it: a streamed chat reply (whose
  // request arrived long ago) goes on for as long as its engine writes.
  it('lets a streamed reply go on past the request timeout', { timeout: 10_000 }, async () => {
    const account = await registerAndLogin(ctx, { name: 'Ana' });
    const gate = createGate();
    ai.setOptions({ chunks: ['first ', 'last'], hold: { afterChunks: 1, until: gate.opened } });
    const res = await fetch(`http://127.0.0.1:${port}/api/chat/message`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ message: 'tell me two things', agentName: 'guia' }),
    });
    const reader = res.body!.getReader();
    let received = '';
    let ended = false;
    const readUntil = async (text: string) => {
      while (!received.includes(text)) {
        const { value, done } = await reader.read();
        if (done) {
          ended = true;
          throw new Error(`the stream ended before ${text}`);
        }
        received += new TextDecoder().decode(value);
      }
    };
    await readUntil('"first "');

    // A request that starts after this one is cut by the timeout: by then this one's request time
    // is over too, and the same check passed over its connection.
    const cut = await trickle(port, 'GET /api/health HTTP/1.1\r\n', 'Host: localhost\r\n\r\n');
    expect(cut.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(ended).toBe(false);

    gate.open();
    await readUntil('event: done');
    expect(received).toContain('"last"');
  });
});
