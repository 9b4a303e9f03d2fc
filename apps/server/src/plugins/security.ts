import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Security headers on every response. Scripts only from our origin (no inline script); inline
 * style attributes are allowed because React sets them. The app may not be framed.
 *
 * helmet decides the headers; since they are the same for every response, it runs once at start
 * against a recording response and each request then gets the recorded set (@fastify/helmet
 * re-parsed the whole policy on every request, a tenth of a simple request's time).
 */
export const securityPlugin = fp(
  async (app) => {
    const headers = recordHeaders(
      helmet({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:', 'blob:'],
            fontSrc: ["'self'", 'data:'],
            connectSrc: ["'self'"],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
          },
        },
        // Served over plain HTTP on localhost and behind TLS-terminating proxies alike; HSTS is
        // the proxy's to set for the real domains.
        strictTransportSecurity: false,
      }),
    );
    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(headers);
    });
  },
  { name: 'security' },
);

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

function recordHeaders(middleware: Middleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  let failed: unknown;
  middleware({ headers: {} } as IncomingMessage, res, (error) => (failed = error));
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}
