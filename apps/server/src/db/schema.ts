// Every feature's tables, for Drizzle's client and drizzle-kit. Features own their tables.
export * from '../features/auth/auth.table';
export * from '../features/agents/agents.table';
export * from '../features/chat/chat.table';
export * from '../features/whatsapp/whatsapp.table';
export * from '../features/whatsapp/whatsapp-auth.table';
export * from '../features/settings/settings.table';
export * from '../features/audit/audit.table';
export * from '../features/images/images.table';
export * from '../features/logs/logs.table';
