// Every feature's tables, for Drizzle's client and drizzle-kit. Features own their tables.
export * from '../features/auth/auth.table';
