import fp from 'fastify-plugin';
import { closingUnavailable } from '@/lib/errors';

/**
 * How the app stops taking work while it closes. Requests already in flight end their keep-alive
 * connection with their response (otherwise close() would wait for each client to hang up,
 * keepAliveTimeout, 72 s), and a request that arrives meanwhile is answered 503 with Retry-After
 * in the API's error shape (Fastify's own return503OnClosing is off for that).
 */
export const closingPlugin = fp(
  async (app) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    // Hooks on every request are callback-style: an async one costs a promise and a turn each.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close');
      done(null, payload);
    });
    app.addHook('onRequest', (_request, _reply, done) => {
      done(closing ? closingUnavailable() : undefined);
    });
  },
  { name: 'closing' },
);
