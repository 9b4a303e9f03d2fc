import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` (from apps/server) writes a migration after a table changes.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './migrations',
});
