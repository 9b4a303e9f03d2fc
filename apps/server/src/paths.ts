import { fileURLToPath } from 'node:url';

// This file sits at the same depth as the bundled dist/main.js, so these resolve the same way
// whether the server runs from source (tsx, vitest) or from the build.
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));
export const PACKAGE_JSON = fileURLToPath(new URL('../package.json', import.meta.url));
/** Written by build.mjs: a migrated empty embedded database to start new ones from. */
export const PGLITE_TEMPLATE = fileURLToPath(new URL('../dist/pglite-template.tar', import.meta.url));
