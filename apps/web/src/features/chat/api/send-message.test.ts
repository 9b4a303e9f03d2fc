import type { SendMessageResponse } from '@contrateia/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '@/lib/api-client';
import { ChatStreamError, chatErrorText, sendMessage } from './send-message';

const done: SendMessageResponse = {
  success: true,
  message: { id: 'm1', text: 'Olá, mundo', sender: 'bot', timestamp: '2024-01-01T00:00:00.000Z' },
  conversation: { id: 'c1' },
};

/** A streamed answer cut into the given pieces, bytes split wherever they fall. */
function sse(pieces: (string | Uint8Array)[], status = 200) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) {
        controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      }
      controller.close();
    },
  });
  return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream' } });
}

function mockFetch(response: Response) {
  const fetch = vi.fn(async () => response);
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const input = { message: 'Oi', agentName: 'guia' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sendMessage', () => {
  it('asks for a stream, hands on each delta and resolves with the stored message', async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"mundo"}\n\n');
    const fetch = mockFetch(
      sse([
        ': keep-alive\n\n',
        'event: delta\ndata: {"text":"Ol',
        'á, "}\n\nevent: delta\n',
        // A multi-byte character split between two reads.
        bytes.slice(0, 30),
        bytes.slice(30),
        `event: done\ndata: ${JSON.stringify(done)}\n\n`,
      ]),
    );
    const deltas: string[] = [];
    await expect(sendMessage({ input, onDelta: (text) => deltas.push(text) })).resolves.toEqual(
      done,
    );
    expect(deltas).toEqual(['Olá, ', 'mundo']);

    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/chat/message');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Accept')).toBe('text/event-stream');
    expect(JSON.parse(init.body as string)).toEqual(input);
  });

  it("throws ChatStreamError with the server's message on an error event", async () => {
    mockFetch(
      sse([
        'event: delta\ndata: {"text":"Ol"}\n\n',
        'event: error\ndata: {"success":false,"message":"falhou"}\n\n',
      ]),
    );
    const deltas: string[] = [];
    const error = await sendMessage({ input, onDelta: (text) => deltas.push(text) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChatStreamError);
    expect((error as ChatStreamError).message).toBe('falhou');
    expect(deltas).toEqual(['Ol']);
  });

  it('throws NetworkError when the stream ends without its final event', async () => {
    mockFetch(sse(['event: delta\ndata: {"text":"Ol"}\n\n']));
    const error = await sendMessage({ input, onDelta: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe('The reply ended before it was complete');
  });

  it('throws ApiError for an error answered before the stream', async () => {
    mockFetch(
      new Response(JSON.stringify({ success: false, message: 'Aguarde a resposta atual' }), {
        status: 409,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    const error = await sendMessage({ input, onDelta: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect(chatErrorText(error, 'genérico')).toBe('Aguarde a resposta atual');
  });

  it('accepts an answer that was not streamed', async () => {
    mockFetch(
      new Response(JSON.stringify(done), { headers: { 'Content-Type': 'application/json' } }),
    );
    const deltas: string[] = [];
    await expect(sendMessage({ input, onDelta: (text) => deltas.push(text) })).resolves.toEqual(
      done,
    );
    expect(deltas).toEqual([done.message.text]);
  });
});

describe('chatErrorText', () => {
  it("shows the server's message for 400 (field message first), 409 and 429 only", () => {
    const field = new ApiError({
      status: 400,
      message: 'Erro',
      errors: { message: 'Longa demais' },
    });
    expect(chatErrorText(field, 'genérico')).toBe('Longa demais');
    expect(chatErrorText(new ApiError({ status: 429, message: 'Calma' }), 'genérico')).toBe(
      'Calma',
    );
    expect(chatErrorText(new ApiError({ status: 502, message: 'IA caiu' }), 'genérico')).toBe(
      'genérico',
    );
    expect(chatErrorText(new ChatStreamError('x'), 'genérico')).toBe('genérico');
    expect(chatErrorText(new NetworkError('x'), 'genérico')).toBe('genérico');
  });
});
