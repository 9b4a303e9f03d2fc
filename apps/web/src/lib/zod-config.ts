/**
 * Zod compiles object parsers with `new Function` when the page allows it, and finds out by
 * trying once, when the first object schema is built. Under the server's CSP (no 'unsafe-eval')
 * that attempt is a reported violation, so turn the compiler off: interpreted parsing is more
 * than fast enough for forms.
 *
 * Runs in the entry chunk, before any chunk that builds a schema (zod is only ever loaded
 * lazily), and without importing zod: `config()` lives in zod's index, whose import also
 * installs its English messages, which every page would then download first. zod keeps its
 * configuration in this global and merges `config()` calls into it (zod-config.test.ts checks
 * that the setting below is the one zod reads).
 */
type ZodGlobal = typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };

const zodGlobal = globalThis as ZodGlobal;
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;
