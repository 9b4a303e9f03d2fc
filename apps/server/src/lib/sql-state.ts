/** PostgreSQL's codes (SQLSTATE) for the refusals the app handles. */
export const SQL_STATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  deadlock: '40P01',
} as const;

/**
 * Whether the database refused a statement with `code` (see SQL_STATE): on the error itself or on
 * one it wraps (Drizzle wraps the driver's error as its `cause`).
 */
export function hasSqlState(error: unknown, code: string): boolean {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = (e as Error).cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}
