import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from '@/lib/api-path';
import { sendApiNotFound } from './errors';

/**
 * Serves the built web app: hashed assets precompressed (brotli or gzip) and cached for a year;
 * every other non-API path gets index.html, whose router takes it from there (unknown → /login).
 * Without a build (tests of the API alone) only the API answers.
 */
export const webPlugin = fp<{ distDir: string; brandDomains: string }>(
  async (app, { distDir, brandDomains }) => {
    const indexFile = path.join(distDir, 'index.html');
    if (!fs.existsSync(indexFile)) {
      app.log.warn(`No web build at ${distDir}; run \`npm run build\` to serve the web app.`);
      app.setNotFoundHandler((request, reply) => sendApiNotFound(request, reply));
      return;
    }

    // The page learns the language ↔ domain map from a meta tag, so no inline script is needed.
    const html = fs
      .readFileSync(indexFile, 'utf8')
      .replace('__BRAND_DOMAINS__', escapeAttribute(brandDomains));
    const index = {
      identity: Buffer.from(html),
      br: zlib.brotliCompressSync(html),
      gzip: zlib.gzipSync(html),
    };

    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      serveDotFiles: false,
      // index.html is a template: only sendIndex may answer with it (brand domains filled in).
      globIgnore: ['index.html', 'index.html.br', 'index.html.gz'],
      setHeaders: (reply, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'cache-control',
          hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        );
      },
    });

    const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
      const accepts = String(request.headers['accept-encoding'] ?? '');
      const encoding = /\bbr\b/.test(accepts)
        ? 'br'
        : /\bgzip\b/.test(accepts)
          ? 'gzip'
          : 'identity';
      reply
        .code(200)
        .type('text/html; charset=utf-8')
        // no-store, not no-cache: after a sign-out, Back must not bring a signed-in page back
        // from the browser's back/forward or HTTP cache (the shell is tiny; assets stay cached).
        .header('cache-control', 'no-store')
        .header('vary', 'accept-encoding');
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(index[encoding]);
    };

    app.get('/', sendIndex);
    app.setNotFoundHandler((request, reply) => {
      // Read as the router reads it: `/%61pi/x` and `GET http://host/api/x` are API paths too.
      if (isApiPath(request.url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return sendApiNotFound(request, reply);
      }
      const pathname = request.url.split('?')[0] ?? '';
      // A missing hashed file is a stale or wrong reference, not a page of the app.
      if (pathname.startsWith('/assets/')) return sendApiNotFound(request, reply);
      return sendIndex(request, reply);
    });
  },
  { name: 'web', dependencies: ['i18n'] },
);

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}
