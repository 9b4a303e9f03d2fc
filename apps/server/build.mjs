// Bundles the server into dist/main.js: our code and the shared workspace package are compiled in,
// every npm dependency stays an ordinary import from node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
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
          args.path.startsWith('@/') || args.path.startsWith('@contrateia/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
