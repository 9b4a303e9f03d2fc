import type { Db } from './client';

/** Each database's prepared statements by name (a transaction's `tx` is a database of its own). */
const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A statement built once per database and then only executed: Drizzle does not build its SQL
 * again on every call, and PostgreSQL parses and plans it once per connection (a named statement;
 * PGlite ignores the name). For the queries on a hot path, such as every WhatsApp message's.
 * `name` must be unique among the app's statements: PostgreSQL refuses one name for two texts.
 * Values come as `sql.placeholder(...)` in `build`, filled at `execute`.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) byName.set(name, (statement = build(db)));
  return statement;
}
