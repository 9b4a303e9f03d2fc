import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * Creating a PGlite database takes seconds; loading a dump of one takes about one. So the schema
 * is built once per run, dumped, and every test file starts from a fresh copy of the dump.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-template-'));
  const file = path.join(dir, 'template.tar');
  const database = await openDatabase({ dataDir: 'memory://' });
  await database.migrate();
  const dump = await database.dumpDataDir!();
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
