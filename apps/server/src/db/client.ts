import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR } from '@/paths';
import * as schema from './schema';

/** Any fixed number: the advisory lock every instance takes to migrate (see openDatabase). */
const MIGRATION_LOCK_KEY = 7_243_612_001;

/** Both drivers' databases share this type: features never know which one they run on. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseKind = 'pglite' | 'postgres';

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /** Applies pending migrations (the same SQL files on both drivers). */
  migrate: () => Promise<void>;
  /** Answers whether the database takes a query right now. */
  ping: () => Promise<boolean>;
  close: () => Promise<void>;
  /** PGlite only: a dump of the data directory (tests clone a migrated template from it). */
  dumpDataDir?: () => Promise<Blob>;
};

/**
 * Opens PostgreSQL when a URL is given, else embedded PGlite in `dataDir` (or in memory when
 * `dataDir` is 'memory://', for tests).
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string;
  /** A PGlite data-directory dump to start from (tests clone a migrated template). */
  loadDataDir?: Blob;
  /**
   * A dump of a freshly migrated database (made by the build) to create a new embedded database
   * from: about 1 s instead of the 5 s PGlite's own initdb takes here.
   */
  templateFile?: string;
}): Promise<Database> {
  if (options.url) {
    // Loaded only for PostgreSQL, so the embedded mode starts without the pg driver.
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle client's error (server restart) must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    const pgDb = drizzlePg({ client: pool, schema });
    return {
      db: pgDb as unknown as Db,
      kind: 'postgres',
      // Instances starting at once would run the same CREATEs side by side and collide: one
      // migrates under a session advisory lock while the others wait, then find nothing to do.
      migrate: async () => {
        const lock = await pool.connect();
        try {
          await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          await migratePg(pgDb, { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
          lock.release();
        }
      },
      ping: () => answers(() => pool.query('select 1')),
      close: () => pool.end(),
    };
  }
  const client = new PGlite(options.dataDir ?? 'memory://', { loadDataDir: options.loadDataDir ?? templateFor(options) });
  await client.waitReady;
  const pgliteDb = drizzlePglite({ client, schema });
  return {
    db: pgliteDb as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_DIR }),
    ping: () => answers(() => client.query('select 1')),
    close: () => client.close(),
    dumpDataDir: async () => (await client.dumpDataDir('none')) as Blob,
  };
}

function templateFor({ dataDir, templateFile }: { dataDir?: string; templateFile?: string }): Blob | undefined {
  const isNew = dataDir && dataDir !== 'memory://' && !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!isNew || !templateFile || !fs.existsSync(templateFile)) return undefined;
  return new Blob([fs.readFileSync(templateFile)]);
}

async function answers(query: () => Promise<unknown>): Promise<boolean> {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}
