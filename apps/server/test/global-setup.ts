import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { createServerDatabase } from './server-database';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** With TEST_DATABASE_URL: the migrated database on that server each test database copies. */
    postgresTemplate: string | undefined;
  }
}

/**
 * Creating a PGlite database takes seconds; loading a dump of one takes about one. So the schema
 * is built once per run, dumped, and every test file starts from a fresh copy of the dump. On a
 * PostgreSQL server (TEST_DATABASE_URL) the same: one database is migrated, and each test
 * database is created as a copy of it, which costs a fraction of running the migrations again.
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

  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = serverUrl
    ? await createServerDatabase(serverUrl, 'contrateia_template')
    : undefined;
  if (template) {
    const migrated = await openDatabase({ url: template.url });
    try {
      await migrated.migrate();
    } finally {
      await migrated.close();
    }
  }
  project.provide('postgresTemplate', template?.name);
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await template?.drop();
  };
}
