import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A new database named `prefix_…` on the PostgreSQL server at `serverUrl`: its URL, and `drop`,
 * which removes it even while something is still connected. Empty, or a copy of `template` (a
 * database on the same server that nothing is connected to).
 */
export async function createServerDatabase(
  serverUrl: string,
  prefix: string,
  template?: string | undefined,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(
      template ? `create database "${name}" template "${template}"` : `create database "${name}"`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
