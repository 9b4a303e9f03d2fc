// Bundles the server into dist/main.js: our code and the shared workspace package are compiled in,
// every npm dependency stays an ordinary import from node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = path.dirname(new URL(import.meta.url).pathname);
process.chdir(here);

// Chunk names carry a hash: drop the previous build's, or dist/ keeps every old one.
for (const file of fs.existsSync('dist') ? fs.readdirSync('dist') : []) {
  if (/\.js(\.map)?$/.test(file)) fs.rmSync(path.join('dist', file));
}

await build({
  absWorkingDir: here,
  // The embedded database's thread is an entry of its own (see src/db/pglite-thread.ts).
  entryPoints: ['src/main.ts', 'src/pglite-worker.mjs'],
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
  plugins: [
    {
      name: 'external-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.kind === 'entry-point' || args.path.startsWith('@/') || args.path.startsWith('@contrateia/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

// A migrated, empty embedded database: new DATA_DIRs start from it in about a second instead of
// running PGlite's initdb (about 5 s here). Rebuilt only when a migration changed.
const template = 'dist/pglite-template.tar';
const migrations = fs.readdirSync('migrations', { recursive: true }).map((f) => fs.statSync(path.join('migrations', String(f))).mtimeMs);
if (!fs.existsSync(template) || fs.statSync(template).mtimeMs < Math.max(...migrations)) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite('memory://');
  await migrate(drizzle({ client }), { migrationsFolder: 'migrations' });
  const dump = await client.dumpDataDir('none');
  fs.writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  await client.close();
}
