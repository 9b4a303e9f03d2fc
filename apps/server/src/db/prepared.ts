import type { Db } from './client';

/** Each database's prepared statements by name (a transaction's `tx` is a database of its own). */
const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A statement built once per database and then only executed: Drizzle does not build its SQL
 * again on every call, and the database parses and plans it once: PostgreSQL once per connection
 * (a named statement), the embedded database once (its thread prepares it under the name; see
 * pglite-thread.ts's nameStatement). For the queries on a hot path, such as every WhatsApp
 * message's. `name` must be unique among the app's statements: PostgreSQL refuses one name for
 * two texts. Values come as `sql.placeholder(...)` in `build`, filled at `execute`.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    byName.set(name, (statement = build(db)));
    nameOnThread(db, name, statement);
  }
  return statement;
}

/** Tells the embedded database's thread the statement's name (Drizzle's PGlite driver drops it). */
function nameOnThread(db: Db, name: string, statement: unknown): void {
  const client = (db as { $client?: unknown }).$client;
  if (!isNaming(client) || !hasQuery(statement)) return;
  client.nameStatement(statement.getQuery().sql, name);
}

function isNaming(
  client: unknown,
): client is { nameStatement: (sql: string, name: string) => void } {
  return typeof (client as { nameStatement?: unknown } | undefined)?.nameStatement === 'function';
}

function hasQuery(statement: unknown): statement is { getQuery: () => { sql: string } } {
  return typeof (statement as { getQuery?: unknown } | undefined)?.getQuery === 'function';
}
