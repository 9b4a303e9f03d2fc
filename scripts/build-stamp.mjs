// Whether a part of the build is up to date: each build writes, beside its output, a stamp holding
// a hash of everything that went into it (sources, configuration, the lock file); `npm start`
// rebuilds a part only when that hash no longer matches, or its output or stamp is missing.
// Content hashes, not modification times: a checkout, a copy or an editor that touches files
// without changing them does not rebuild, and a change within the same second is still seen.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Tests are never bundled; editing one rebuilds nothing.
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

/** The package.json (its version) of the package `name` that `from` gets, in the nearest node_modules. */
const installed = (from, name) => () => {
  const paths = createRequire(path.join(ROOT, from)).resolve.paths(name) ?? [];
  const found = paths
    .map((dir) => path.join(dir, name, 'package.json'))
    .find((file) => fs.existsSync(file));
  return path.relative(ROOT, found ?? path.join(ROOT, 'node_modules', name, 'package.json'));
};

const SHARED = ['packages/shared/package.json', 'packages/shared/src', 'tsconfig.base.json'];

/**
 * Each part: its stamp, the files that must exist for it to count as built, and its inputs (files
 * or folders, relative to the repository root; a function for one resolved when hashing).
 */
export const PARTS = {
  web: {
    what: 'web app',
    stamp: 'apps/web/dist/.build-stamp',
    outputs: ['apps/web/dist/index.html'],
    inputs: [
      'apps/web/index.html',
      'apps/web/package.json',
      'apps/web/public',
      'apps/web/src',
      'apps/web/tsconfig.json',
      'apps/web/vite.config.ts',
      ...SHARED,
      'package-lock.json',
      'scripts/build-stamp.mjs',
    ],
  },
  server: {
    what: 'server',
    stamp: 'apps/server/dist/.build-stamp',
    outputs: [
      'apps/server/dist/main.js',
      'apps/server/dist/pglite-worker.js',
      'apps/server/dist/monitor.system-worker.js',
      'apps/server/dist/my-agent-documents.worker.js',
    ],
    inputs: [
      'apps/server/build.mjs',
      'apps/server/package.json',
      'apps/server/src',
      'apps/server/tsconfig.json',
      ...SHARED,
      'package-lock.json',
      'scripts/build-stamp.mjs',
    ],
  },
  // The migrated empty database new DATA_DIRs start from: its migrations, and the versions of
  // what writes it (PGlite's data format, Drizzle's migrator), not the whole lock file: adding
  // any dependency should not cost the few seconds this takes.
  template: {
    what: 'database template',
    stamp: 'apps/server/dist/pglite-template.stamp',
    outputs: ['apps/server/dist/pglite-template.tar'],
    inputs: [
      'apps/server/migrations',
      'apps/server/build.mjs',
      installed('apps/server/package.json', '@electric-sql/pglite'),
      installed('apps/server/package.json', 'drizzle-orm'),
      'scripts/build-stamp.mjs',
    ],
  },
};

function* files(root, relative) {
  const full = path.join(root, relative);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    yield { relative, content: null }; // a missing input counts too: creating it is a change
    return;
  }
  if (stat.isFile()) {
    yield { relative, content: fs.readFileSync(full) };
    return;
  }
  const entries = fs
    .readdirSync(full, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.'))
      continue;
    if (entry.isFile() && TEST_FILE.test(entry.name)) continue;
    if (entry.isDirectory() || entry.isFile()) yield* files(root, path.join(relative, entry.name));
  }
}

/** The hash of a part's inputs as they are now. */
export function inputsHash(name, { root = ROOT, parts = PARTS } = {}) {
  const hash = createHash('sha256');
  for (const input of parts[name].inputs) {
    for (const { relative, content } of files(
      root,
      typeof input === 'function' ? input() : input,
    )) {
      // Length-prefixed, so no two different sets of files can give the same stream.
      const name = relative.split(path.sep).join('/');
      hash.update(`${name.length}:${name}`);
      if (content === null) hash.update('-');
      else hash.update(`${content.length}:`).update(content);
    }
  }
  return hash.digest('hex');
}

/**
 * Whether the part must be built: its stamp is missing or names other inputs, or an output is
 * missing. Answers the hash too, for the build to stamp its output with.
 */
export function checkPart(name, { root = ROOT, parts = PARTS } = {}) {
  const part = parts[name];
  const hash = inputsHash(name, { root, parts });
  let stamped = null;
  try {
    stamped = fs.readFileSync(path.join(root, part.stamp), 'utf8').trim();
  } catch {
    // no stamp: never built, or the build did not finish
  }
  const complete = part.outputs.every((output) => fs.existsSync(path.join(root, output)));
  return { hash, upToDate: complete && stamped === hash };
}

/** Records that the part's output was built from inputs with this hash (last step of a build). */
export function writeStamp(name, hash, { root = ROOT, parts = PARTS } = {}) {
  const file = path.join(root, parts[name].stamp);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written whole under another name, then renamed: a reader sees the old stamp or the new one.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${hash}\n`);
  fs.renameSync(temporary, file);
}

/** Forgets the part's stamp: its output is about to change. */
export function removeStamp(name, { root = ROOT, parts = PARTS } = {}) {
  fs.rmSync(path.join(root, parts[name].stamp), { force: true });
}
