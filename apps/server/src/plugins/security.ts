import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { isApiPath, isApiRoute } from '@/lib/api-path';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on every route when it is declared: an API route, whose answers get API_HEADERS. */
    apiRoute?: boolean;
    /** Set on every route when it is declared: an API route closed while in maintenance (plugins/auth.ts). */
    maintenanceGate?: boolean;
  }
}

/**
 * Security headers on every response. Scripts only from our origin (no inline script); inline
 * style attributes are allowed because React sets them. The app may not be framed (CSP
 * frame-ancestors, and X-Frame-Options DENY for browsers that know only that), and pages may use
 * none of the powerful browser features (Permissions-Policy) but writing to the clipboard.
 *
 * helmet decides the headers; since they are the same for every response, it runs once at start
 * against a recording response and each request then gets the recorded set (@fastify/helmet
 * re-parsed the whole policy on every request, a tenth of a simple request's time).
 *
 * Which set a request gets is decided by the route it reached, not by how its URL is written
 * (`/%61pi/user` and `GET http://x/api/user` reach `/api/user`): each route is marked when it is
 * declared (`config.apiRoute`); a request no route answered is judged on its path as the router
 * reads it.
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
        // helmet's default is SAMEORIGIN, looser than frame-ancestors 'none'.
        xFrameOptions: { action: 'deny' },
        // Served over plain HTTP on localhost and behind TLS-terminating proxies alike; HSTS is
        // the proxy's to set for the real domains.
        strictTransportSecurity: false,
      }),
    );
    headers['permissions-policy'] = PERMISSIONS_POLICY;
    // Marked when each route is declared, read from the route a request reached: no URL string
    // work on the way, and no way around it by spelling the URL otherwise.
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, apiRoute: isApiRoute(route.url) };
    });
    // The first onRequest hook of all (this plugin is registered first), so every answer, a guard's
    // 401 or maintenance's 503 included, carries its set. Callback-style: an async hook would cost
    // every request a promise and a turn.
    app.addHook('onRequest', (request, reply, done) => {
      const api = request.is404
        ? isApiPath(request.url)
        : request.routeOptions.config.apiRoute === true;
      reply.headers(api ? API_HEADERS : headers);
      done();
    });
  },
  { name: 'security' },
);

/**
 * API answers are JSON, never a document a browser renders: the page policy (scripts, styles,
 * images) says nothing there, nor does a permissions policy (no script runs to ask for a
 * feature). They get the policy that forbids everything and framing, nosniff, and the few headers
 * that still mean something for a fetched resource. Fewer bytes on every call.
 *
 * No cache keeps an API answer (`no-store`): each is one user's data at one moment, and after a
 * sign-out neither the browser's cache nor a shared proxy may hand it out again. A route that
 * means to be cached sets its own. A streamed reply, which writes its own head, starts from
 * these too (chat.routes.ts).
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/**
 * The browser features pages may use: none of the powerful ones (the app uses no camera,
 * microphone, location, sensors, payment or devices), but the clipboard write of the chat's Copy
 * button. Only features Chromium knows are named: an unknown one is a console error on every page.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'clipboard-read=()',
  'clipboard-write=(self)',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

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
