import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/**
 * Security headers on every response. Scripts only from our origin (no inline script); inline
 * style attributes are allowed because React sets them. The app may not be framed.
 */
export const securityPlugin = fp(
  async (app) => {
    await app.register(helmet, {
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
      // Served over plain HTTP on localhost and behind TLS-terminating proxies alike; HSTS is the
      // proxy's to set for the real domains.
      strictTransportSecurity: false,
    });
  },
  { name: 'security' },
);
