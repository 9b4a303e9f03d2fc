import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(root, 'dist');

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/**
 * Writes `.gz` and `.br` beside every text asset so the server can send them precompressed,
 * spending the maximum compression effort once at build time instead of on every request.
 */
function precompress(): Plugin {
  return {
    name: 'contrateia:precompress',
    apply: 'build',
    async closeBundle() {
      const jobs: Promise<void>[] = [];
      for await (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        jobs.push(
          readFile(file).then(async (data) => {
            const [gz, br] = await Promise.all([
              gzipAsync(data, { level: 9 }),
              brotliAsync(data, {
                params: {
                  [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                  [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
            ]);
            await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
          }),
        );
      }
      await Promise.all(jobs);
    },
  };
}

/**
 * react-router 7's package exports always point at its development build, which keeps dev-only
 * warnings and checks (remix-run/react-router#12532, #14102); builds use its production build.
 */
function reactRouterProductionBuild(): string {
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve('react-router/package.json'));
  return path.join(pkg, 'dist/production/index.mjs');
}

export default defineConfig(({ command }) => ({
  plugins: [react(), precompress()],
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.join(root, 'src')}/` },
      ...(command === 'build'
        ? [{ find: /^react-router$/, replacement: reactRouterProductionBuild() }]
        : []),
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  preview: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
  },
}));
