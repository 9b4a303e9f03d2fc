import { fileURLToPath } from 'node:url';

// This file sits at the same depth as the bundled dist/main.js, so these resolve the same way
// whether the server runs from source (tsx, vitest) or from the build.
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));
export const PACKAGE_JSON = fileURLToPath(new URL('../package.json', import.meta.url));
/** Written by build.mjs: a migrated empty embedded database to start new ones from. */
export const PGLITE_TEMPLATE = fileURLToPath(
  new URL('../dist/pglite-template.tar', import.meta.url),
);
/** The embedded database's thread: src/pglite-worker.mjs, bundled to dist/pglite-worker.js. */
export const PGLITE_WORKER = new URL(
  import.meta.url.endsWith('.ts') ? './pglite-worker.mjs' : './pglite-worker.js',
  import.meta.url,
);
/** The machine's figures' thread: src/features/monitor/monitor.system-worker.mjs, bundled to dist/monitor.system-worker.js. */
export const SYSTEM_WORKER = new URL(
  import.meta.url.endsWith('.ts')
    ? './features/monitor/monitor.system-worker.mjs'
    : './monitor.system-worker.js',
  import.meta.url,
);
/** The documents' reading thread: src/features/agents/my-agent-documents.worker.mjs, bundled to dist/my-agent-documents.worker.js. */
export const DOCUMENTS_WORKER = new URL(
  import.meta.url.endsWith('.ts')
    ? './features/agents/my-agent-documents.worker.mjs'
    : './my-agent-documents.worker.js',
  import.meta.url,
);
