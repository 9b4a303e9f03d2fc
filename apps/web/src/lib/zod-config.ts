import { config } from 'zod';

/**
 * Zod compiles object parsers with `new Function` when the page allows it, and finds out by
 * trying once. Under the server's CSP (no 'unsafe-eval') that attempt is a reported violation,
 * so turn the compiler off: interpreted parsing is more than fast enough for forms.
 *
 * Runs in the entry chunk, before any chunk that builds a schema: zod is only ever loaded lazily.
 */
config({ jitless: true });
