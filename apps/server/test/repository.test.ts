import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The repository explains itself: a comment is read beside its code, years after the tracker and
// the specification's numbering it might point to have moved on, so it never sends the reader
// there; and the architecture document names only files and folders that exist.

const root = path.resolve(import.meta.dirname, '../../..');
const SOURCE = /\.(ts|tsx|mts|mjs|js|css)$/;
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report']);

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (SOURCE.test(entry.name)) found.push(full);
  }
  return found;
}

/**
 * Every comment of a file, with its line: for code, the comment ranges TypeScript's parser finds
 * before and after each node and token (a scanner alone loses its place at regular expressions,
 * template strings and JSX text); for a stylesheet, its block comments.
 */
function commentsOf(file: string): Array<{ line: number; text: string }> {
  const text = fs.readFileSync(file, 'utf8');
  const lineOf = (position: number) => text.slice(0, position).split('\n').length;
  if (file.endsWith('.css')) {
    return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => ({
      line: lineOf(m.index),
      text: m[0],
    }));
  }
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) found.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found].map(([position, comment]) => ({ line: lineOf(position), text: comment }));
}

/**
 * A pointer out of the repository: an issue by number, or a section of the specification. A
 * standard's section (`RFC 9110 §11.1`) is a citation anyone can follow, so it may stay.
 */
const OUTSIDE = /\bissues? #?\d+|(?<!RFC \d+ )§\s*\d+|\bspec(ification)?'s? (section )?\d+/i;

describe('the repository', () => {
  it('has no comment that sends the reader to an issue or a section of the specification', () => {
    const offenders: string[] = [];
    for (const dir of ['apps', 'packages', 'scripts']) {
      for (const file of sourceFiles(path.join(root, dir))) {
        // A comment is a stretch of its file that starts with a slash, so a pointer in a comment
        // is one in the file's text too: only the few files whose text has one are parsed.
        if (!OUTSIDE.test(fs.readFileSync(file, 'utf8'))) continue;
        for (const comment of commentsOf(file)) {
          if (OUTSIDE.test(comment.text)) {
            offenders.push(
              `${path.relative(root, file)}:${comment.line}: ${comment.text.match(OUTSIDE)![0]}`,
            );
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('keeps app.ts to registrations: under 120 lines', () => {
    const app = fs.readFileSync(path.join(root, 'apps/server/src/app.ts'), 'utf8');
    expect(app.trimEnd().split('\n').length).toBeLessThan(120);
  });

  it('has an architecture document that names only paths that exist', () => {
    const doc = fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
    // A map a newcomer reads at one sitting.
    expect(doc.trimEnd().split('\n').length).toBeLessThan(300);
    const named = pathsNamedIn(doc);
    expect(named.length).toBeGreaterThan(20);
    const missing = named
      .filter(({ candidates }) => !candidates.some((one) => fs.existsSync(path.join(root, one))))
      .map(({ named }) => named);
    expect(missing).toEqual([]);
  });
});

/** Where a path in the document's prose may be written from: the root or a workspace's source. */
const BASES = [
  '',
  'apps/server/',
  'apps/server/src/',
  'apps/web/',
  'apps/web/src/',
  'packages/shared/',
  'packages/shared/src/',
];

/**
 * The repository paths a document names, each as the places it may mean: in its tree (a code
 * block where a line at the margin names a folder, `apps/server/`, and a line indented by two
 * names a path within it; deeper lines are descriptions), and in backticks in the prose
 * (`src/app.ts`, `features/chat/`), read from the root or a workspace.
 */
function pathsNamedIn(doc: string): Array<{ named: string; candidates: string[] }> {
  const found: Array<{ named: string; candidates: string[] }> = [];
  let inTree = false;
  let folder = '';
  for (const line of doc.split('\n')) {
    if (line.startsWith('```')) {
      inTree = !inTree;
      folder = '';
      continue;
    }
    if (inTree) {
      const entry = /^( {0,2})(\S+)/.exec(line);
      if (!entry || !/[/.]/.test(entry[2]!)) continue;
      if (entry[1] === '') folder = entry[2]!.endsWith('/') ? entry[2]! : '';
      const named = entry[1] === '' ? entry[2]! : folder + entry[2]!;
      for (const one of expandBraces(named)) found.push({ named: one, candidates: [one] });
      continue;
    }
    for (const [, quoted] of line.matchAll(/`([\w@.-]+(?:\/[\w@.{},-]+)+\/?)`/g)) {
      // A file (with its extension) or a folder (with its slash): not a package, a MIME type, a
      // lint rule, nor a place under a variable's directory (DATA_DIR/images).
      if (!/(\.\w+|\/)$/.test(quoted!) || /^(@|[A-Z_]+\/)/.test(quoted!)) continue;
      for (const one of expandBraces(quoted!)) {
        found.push({ named: one, candidates: BASES.map((base) => base + one) });
      }
    }
  }
  return found;
}

/** `locales/{a,b}.json` as `locales/a.json` and `locales/b.json`. */
function expandBraces(named: string): string[] {
  const braces = /\{([^}]*)\}/.exec(named);
  if (!braces) return [named];
  return braces[1]!.split(',').flatMap((part) => expandBraces(named.replace(braces[0], part)));
}
