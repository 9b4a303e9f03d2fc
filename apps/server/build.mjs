// Bundles the server into dist/main.js: our code and the shared workspace package are compiled in,
// every npm dependency stays an ordinary import from node_modules. Then the database template.
// Each output is stamped with the hash of its inputs (scripts/build-stamp.mjs), so `npm start`
// builds again only what changed.
//
// Files are written under a temporary name and renamed into place, so a server starting, or
// another build running (tests build too), never reads a half-written or missing file.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { checkPart, removeStamp, writeStamp } from '../../scripts/build-stamp.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
process.chdir(here);

/** Writes `data` to `file` through a temporary file and a rename. */
function replaceFile(file, data) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, file);
}

const { hash: bundleHash } = checkPart('server');
const result = await build({
  absWorkingDir: here,
  // The embedded database's thread, the machine's figures' thread and the documents' reading
  // thread are entries of their own (see src/db/pglite-thread.ts,
  // src/features/monitor/monitor.system.ts and src/features/agents/my-agent-documents.reader.ts).
  entryPoints: [
    'src/main.ts',
    'src/pglite-worker.mjs',
    'src/features/monitor/monitor.system-worker.mjs',
    'src/features/agents/my-agent-documents.worker.mjs',
  ],
  outdir: 'dist',
  entryNames: '[name]',
  // The app is a chunk of its own, imported while the embedded database starts (see main.ts).
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
  write: false,
  plugins: [
    {
      name: 'external-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.kind === 'entry-point' ||
          args.path.startsWith('@/') ||
          args.path.startsWith('@contrateia/')
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ],
});

fs.mkdirSync('dist', { recursive: true });
removeStamp('server');
const written = new Set();
for (const file of result.outputFiles) {
  replaceFile(file.path, file.contents);
  written.add(path.basename(file.path));
}
// Chunk names carry a hash: drop the previous build's, or dist/ keeps every old one.
for (const file of fs.readdirSync('dist')) {
  if (/\.js(\.map)?$/.test(file) && !written.has(file))
    fs.rmSync(path.join('dist', file), { force: true });
}
writeStamp('server', bundleHash);

// A migrated, empty embedded database: new DATA_DIRs start from it in about a second instead of
// running PGlite's initdb (about 5 s here). Made again only when a migration (or PGlite, or
// Drizzle) changed.
const template = checkPart('template');
if (!template.upToDate) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // The extensions the migrations create, as the database thread loads them (src/pglite-worker.mjs).
  const client = new PGlite('memory://', { extensions: { pg_trgm, unaccent } });
  await migrate(drizzle({ client }), { migrationsFolder: 'migrations' });
  const dump = await client.dumpDataDir('none');
  removeStamp('template');
  replaceFile('dist/pglite-template.tar', Buffer.from(await dump.arrayBuffer()));
  await client.close();
  writeStamp('template', template.hash);
}
