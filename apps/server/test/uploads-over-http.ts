import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Language } from '@contrateia/shared';
import type { TestContext } from './helpers';

/** What the client read of an answer, and whether its request went on a connection used before. */
export type KeptAnswer = { status: number; body: string; connection?: string; reused: boolean };

/** The test app's address over real HTTP: it listens on a port of its own from the first call. */
async function addressOf(ctx: TestContext): Promise<URL> {
  return new URL(
    ctx.app.server.listening
      ? `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
      : await ctx.app.listen({ port: 0, host: '127.0.0.1' }),
  );
}

/**
 * A browser's way of sending requests over real HTTP: one keep-alive connection, reused from one
 * request to the next when the server leaves it usable. A form's body is written in 64 KB pieces,
 * announced (`content-length`) or chunked, as a browser streams an upload.
 */
export async function keepAliveClient(
  ctx: TestContext,
  { token, language }: { token: string; language: Language },
) {
  const address = await addressOf(ctx);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  /** GET `path`, or POST `form` to it. */
  function send(
    path: string,
    form?: { body: Buffer; contentType: string; chunked: boolean },
  ): Promise<KeptAnswer> {
    return new Promise((resolve, reject) => {
      const request = http.request(address, {
        agent,
        method: form ? 'POST' : 'GET',
        path,
        headers: {
          authorization: `Bearer ${token}`,
          'accept-language': language,
          ...(form && { 'content-type': form.contentType }),
          ...(form &&
            (form.chunked
              ? { 'transfer-encoding': 'chunked' }
              : { 'content-length': form.body.length })),
        },
      });
      request.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body: text,
            connection: res.headers.connection,
            reused: request.reusedSocket,
          }),
        );
        res.on('error', reject);
      });
      request.on('error', reject);
      if (form)
        for (let at = 0; at < form.body.length; at += 64 * 1024)
          request.write(form.body.subarray(at, at + 64 * 1024));
      request.end();
    });
  }

  return { send, close: () => agent.destroy() };
}

/** A FormData's multipart body and its content type (with the boundary), as fetch would send them. */
export async function multipartOf(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const response = new Response(form);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type')!,
  };
}

/**
 * POSTs to `path` a form whose one file part goes on for `offered` bytes, streamed as fetch sends
 * it (chunked, no length announced) and only as fast as the server pulls it: the answer, and how
 * much of the body the server (and the sockets' buffers) had taken by the time it was read.
 */
export async function offerHugeUpload(
  ctx: TestContext,
  {
    path,
    field,
    filename,
    token,
    language,
    offered = 200 * 1024 * 1024,
  }: {
    path: string;
    field: string;
    filename: string;
    token: string;
    language: Language;
    offered?: number;
  },
): Promise<{ status: number; connection: string | null; body: unknown; pulled: number }> {
  const address = await addressOf(ctx);
  let pulled = 0;
  const boundary = 'huge-upload-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const chunk = new Uint8Array(64 * 1024).fill(7);
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(new TextEncoder().encode(head)),
    pull: (controller) => {
      if (pulled >= offered) return controller.close();
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  const res = await fetch(new URL(path, address), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'accept-language': language,
    },
    body,
    duplex: 'half',
  } as RequestInit);
  return {
    status: res.status,
    connection: res.headers.get('connection'),
    body: await res.json(),
    pulled,
  };
}
