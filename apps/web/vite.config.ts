import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { checkPart, PARTS, ROOT, writeStamp } from '../../scripts/build-stamp.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));

// The API, and its Socket.IO endpoint (WebSocket), on the server's port.
const PROXY = {
  '/api': 'http://127.0.0.1:3000',
  '/socket.io': { target: 'http://127.0.0.1:3000', ws: true },
  // The admin's theme, made by the server.
  '/theme.css': 'http://127.0.0.1:3000',
};

/**
 * What the sign-in page shares with most other pages beyond the entry: the labelled field, its
 * messages and errors, the public settings, TanStack Query's mutations, the logo, the language
 * selector, the document title and timed messages. Kept in one file: left to
 * the automatic splitting, every new page that shares some of them but not others cuts them into
 * more files, which /login then fetches one by one and which compress worse (its budget:
 * scripts/login-weight.mjs).
 */
const FORM_PIECES =
  /[\\/](components[\\/]ui[\\/](text-field|live-message|logo)\.tsx|components[\\/]language-selector\.tsx|lib[\\/]form-errors\.ts|hooks[\\/](use-public-settings|use-document-title|use-timed-message)\.ts|query-core[\\/].+[\\/]mutationObserver\.js|react-query[\\/].+[\\/]useMutation\.js)$/;

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
  let outDir = '';
  return {
    name: 'contrateia:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
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
 * Stamps dist/ with the hash of the build's inputs once all of it is written, precompressed
 * files included, so `npm start` knows it is up to date (scripts/build-stamp.mjs). A failed build
 * leaves no stamp: emptyOutDir removed the previous one. Builds elsewhere (another outDir) are
 * not stamped: `npm start` serves this one.
 */
function buildStamp(): Plugin {
  let hash = '';
  let stamped = false;
  let written = false;
  return {
    name: 'contrateia:build-stamp',
    apply: 'build',
    configResolved(config) {
      const outDir = path.resolve(config.root, config.build.outDir);
      stamped = outDir === path.join(ROOT, path.dirname(PARTS.web.stamp));
    },
    buildStart() {
      // Before the build reads anything: a file changed while it runs is built again next time.
      if (stamped) hash = checkPart('web').hash;
      written = false;
    },
    writeBundle() {
      written = true;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler(error?: Error) {
        if (stamped && written && !error) writeStamp('web', hash);
      },
    },
  };
}

/**
 * react-i18next imports useSyncExternalStore from `use-sync-external-store/shim`, a fallback for
 * React 17 and older; React 19 has its own, so the shim's code is left out of the bundle.
 */
function reactOwnSyncExternalStore(): Plugin {
  const id = '\0contrateia:use-sync-external-store-shim';
  return {
    name: 'contrateia:use-sync-external-store',
    enforce: 'pre',
    resolveId: (source) => (source === 'use-sync-external-store/shim' ? id : null),
    load: (source) => (source === id ? "export { useSyncExternalStore } from 'react';" : null),
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
  plugins: [react(), reactOwnSyncExternalStore(), precompress(), buildStamp()],
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
    proxy: PROXY,
  },
  preview: {
    proxy: PROXY,
  },
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    assetsDir: 'assets',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // One chunk per language: the shared texts and the web's own (see lib/i18n.ts).
            {
              debugName: 'locales',
              name: (id: string) =>
                /[\\/]locales[\\/](pt-BR|en-US|es-ES)\.json$/.exec(id)?.[1] ?? null,
            },
            // Everything the entry imports statically, in one file: every page needs all of it
            // first, and one file compresses better than the four that sharing would make.
            { name: 'app', tags: ['$initial'] },
            { name: 'forms', test: FORM_PIECES },
          ],
        },
      },
    },
  },
}));
