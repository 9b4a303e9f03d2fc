import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkPart,
  PARTS,
  removeStamp,
  writeStamp,
  type Part,
} from '../../../scripts/build-stamp.mjs';

/**
 * `npm start` builds a part again only when checkPart says it is out of date (scripts/start.mjs):
 * here on a small project of its own, in a temporary folder, built by writing its output and stamp.
 */

let root: string;
const parts: Record<string, Part> = {
  app: {
    what: 'app',
    stamp: 'dist/.build-stamp',
    outputs: ['dist/main.js'],
    inputs: ['src', 'config.json', 'package-lock.json'],
  },
};
const options = () => ({ root, parts });

function write(relative: string, content: string) {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), content);
}

/** What a build does: writes the output, then the stamp of the inputs it read. */
function build() {
  const { hash } = checkPart('app', options());
  write('dist/main.js', 'built');
  writeStamp('app', hash, options());
}

const upToDate = () => checkPart('app', options()).upToDate;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-stamp-'));
  write('src/main.ts', 'export const a = 1;');
  write('src/lib/util.ts', 'export const b = 2;');
  write('config.json', '{}');
  write('package-lock.json', '{"lockfileVersion":3}');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('checkPart', () => {
  it('a fresh clone (no output, no stamp) builds', () => {
    expect(upToDate()).toBe(false);
  });

  it('nothing changed since the last build: skips', () => {
    build();
    expect(upToDate()).toBe(true);
    // Touching a file without changing it is no change.
    const file = path.join(root, 'src/main.ts');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    expect(upToDate()).toBe(true);
  });

  it('a changed, added or removed source file: builds', () => {
    build();
    write('src/main.ts', 'export const a = 2;');
    expect(upToDate()).toBe(false);
    build();
    write('src/lib/new.ts', 'export {};');
    expect(upToDate()).toBe(false);
    build();
    fs.rmSync(path.join(root, 'src/lib/util.ts'));
    expect(upToDate()).toBe(false);
    build();
    // A file renamed keeps its content but is another input.
    fs.renameSync(path.join(root, 'src/main.ts'), path.join(root, 'src/index.ts'));
    expect(upToDate()).toBe(false);
  });

  it('a changed lock file or configuration: builds', () => {
    build();
    write('package-lock.json', '{"lockfileVersion":3,"packages":{}}');
    expect(upToDate()).toBe(false);
    build();
    write('config.json', '{"a":1}');
    expect(upToDate()).toBe(false);
  });

  it('a missing stamp (a build that did not finish) or output (dist deleted): builds', () => {
    build();
    removeStamp('app', options());
    expect(upToDate()).toBe(false);
    build();
    fs.rmSync(path.join(root, 'dist/main.js'));
    expect(upToDate()).toBe(false);
    build();
    fs.rmSync(path.join(root, 'dist'), { recursive: true });
    expect(upToDate()).toBe(false);
  });

  it('a test file, which no build reads, changed: skips', () => {
    write('src/main.test.ts', 'one');
    build();
    write('src/main.test.ts', 'two');
    write('src/lib/util.test.tsx', 'new');
    expect(upToDate()).toBe(true);
  });
});

describe("the project's parts", () => {
  const inputs = (name: keyof typeof PARTS) =>
    PARTS[name].inputs.map((input) => (typeof input === 'function' ? input() : input));

  it('the web app and the server are built again for a change in their sources, the shared package or the lock file', () => {
    expect(inputs('web')).toEqual(
      expect.arrayContaining([
        'apps/web/src',
        'apps/web/index.html',
        'apps/web/vite.config.ts',
        'packages/shared/src',
        'package-lock.json',
      ]),
    );
    expect(inputs('server')).toEqual(
      expect.arrayContaining([
        'apps/server/src',
        'apps/server/build.mjs',
        'packages/shared/src',
        'package-lock.json',
      ]),
    );
  });

  it('the database template, for its migrations and the versions of PGlite and Drizzle only', () => {
    expect(inputs('template')).toEqual(
      expect.arrayContaining([
        'apps/server/migrations',
        expect.stringMatching(/@electric-sql\/pglite\/package\.json$/),
        expect.stringMatching(/drizzle-orm\/package\.json$/),
      ]),
    );
    expect(inputs('template')).not.toContain('package-lock.json');
  });
});
