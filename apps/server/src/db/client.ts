import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { MIGRATIONS_DIR } from '@/paths';
import { asPglite, openPgliteThread } from './pglite-thread';
import type * as schema from './schema';

/** Any fixed number: the advisory lock every instance takes to migrate (see openDatabase). */
const MIGRATION_LOCK_KEY = 7_243_612_001;

/** Both drivers' databases share this type: features never know which one they run on. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseKind = 'pglite' | 'postgres';

/** Rows as the driver answers them, for SQL written by hand beside Drizzle. */
export type RawResult = { rows: Record<string, unknown>[] };

/** A connection of its own, outside the pool's turns: what it holds (advisory locks) lives as long as it does. */
export type Session = {
  query: (sql: string, params?: unknown[]) => Promise<RawResult>;
  /** Told once if the connection breaks (the server restarted, the network dropped). */
  onLost: (listener: (error: Error) => void) => void;
  close: () => Promise<void>;
};

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /** Applies pending migrations (the same SQL files on both drivers). */
  migrate: () => Promise<void>;
  /**
   * SQL beside Drizzle, for a library that writes its own (pg-boss): one statement with `$n`
   * parameters, or, without parameters, a script of several (run in a transaction of its own on
   * the embedded database). A hot statement may be `name`d: PostgreSQL then parses and plans it
   * once per connection, as db/prepared.ts's (PGlite ignores the name).
   */
  execute: (sql: string, params?: unknown[], name?: string) => Promise<RawResult>;
  /** PostgreSQL only: opens a session of its own (see Session). */
  openSession?: () => Promise<Session>;
  /** Answers whether the database takes a query right now. */
  ping: () => Promise<boolean>;
  close: () => Promise<void>;
  /** PGlite only: a dump of the data directory (tests clone a migrated template from it). */
  dumpDataDir?: () => Promise<Blob>;
};

/**
 * Opens PostgreSQL when a URL is given, else embedded PGlite in `dataDir` (or in memory when
 * `dataDir` is 'memory://', for tests). Neither connects before its first query: call `migrate`
 * first, which also reports a database that cannot be reached or opened.
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string;
  /** A PGlite data-directory dump to start from (tests clone a migrated template). */
  loadDataDir?: Uint8Array;
  /**
   * A dump of a freshly migrated database (made by the build) to create a new embedded database
   * from: about 1 s instead of the 5 s PGlite's own initdb takes here.
   */
  templateFile?: string;
}): Promise<Database> {
  if (options.url) {
    // Loaded only for PostgreSQL, so the embedded mode starts without the pg driver.
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }, schema] =
      await Promise.all([
        import('pg'),
        import('drizzle-orm/node-postgres'),
        import('drizzle-orm/node-postgres/migrator'),
        import('./schema'),
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
      execute: (text, params, name) =>
        name === undefined ? pool.query(text, params) : pool.query({ name, text, values: params }),
      openSession: async () => {
        const client = new pg.Client({ connectionString: options.url });
        const listeners: ((error: Error) => void)[] = [];
        let lost = false;
        const lose = (error: Error) => {
          if (lost) return;
          lost = true;
          for (const listener of listeners) listener(error);
        };
        client.on('error', lose);
        client.on('end', () => lose(new Error('the session ended')));
        await client.connect();
        return {
          query: (text, params) => client.query(text, params),
          onLost: (listener) => void listeners.push(listener),
          close: async () => {
            lost = true;
            await client.end().catch(() => {});
          },
        };
      },
      ping: () => answers(() => pool.query('select 1')),
      close: () => pool.end(),
    };
  }
  // The embedded database runs on a thread of its own (see pglite-thread.ts). It starts first,
  // and queries wait for it; Drizzle and the schema load while it opens (tens of milliseconds
  // each), and the caller can go on with its own start while it does. A database that cannot
  // open fails its first query (the migration, at start) with the reason.
  const client = openPgliteThread({
    dataDir: options.dataDir ?? 'memory://',
    loadDataDir: options.loadDataDir,
    templateFile: options.templateFile,
  });
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }, schema] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    import('./schema'),
  ]);
  const pgliteDb = drizzlePglite({ client: asPglite(client), schema });
  return {
    db: pgliteDb as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_DIR }),
    execute: (text, params) =>
      params === undefined ? client.exec(text) : client.query(text, params),
    ping: () => answers(() => client.query('select 1')),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir(),
  };
}

async function answers(query: () => Promise<unknown>): Promise<boolean> {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}
