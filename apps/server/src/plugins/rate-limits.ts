import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { retryLater } from '@/lib/errors';

/**
 * @fastify/rate-limit for the routes that declare a limit (none is global), counted in the shared
 * state's Redis when there is one, so every instance counts the same requests; a refusal is a 429
 * with Retry-After in the API's error shape.
 */
export const rateLimitsPlugin = fp(
  async (app) => {
    const { state } = app.platform;
    await app.register(rateLimit, {
      global: false,
      ...(state.redis ? { redis: state.redis, nameSpace: `${state.keyPrefix}:rl:` } : {}),
      errorResponseBuilder: (_request, context) =>
        retryLater('errors.tooManyRequests', context.ttl),
    });
  },
  { name: 'rate-limits', dependencies: ['platform'] },
);
