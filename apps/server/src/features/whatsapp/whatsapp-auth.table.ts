import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '@/features/auth/auth.table';

/**
 * The Baileys auth state of each account's WhatsApp link, kept in the database (never in files)
 * so a restart, or another instance, resumes the link without a new QR code. Values are Baileys'
 * `BufferJSON` text. Deleting the account deletes its link.
 */
export const whatsappAuthCreds = pgTable('whatsapp_auth_creds', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  creds: text('creds').notNull(),
  /** The linked device's JID once a phone has scanned the QR; null while not yet linked. */
  meId: text('me_id'),
  /**
   * Why the link stopped for good while its auth state stays (`banned`, `replaced`, `failed`): no instance
   * takes such an account over by itself. Cleared when the account is asked to connect again.
   */
  stoppedReason: text('stopped_reason'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per signal key (pre-keys, sessions, sender keys, app-state keys…) of an account. */
export const whatsappAuthKeys = pgTable(
  'whatsapp_auth_keys',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    id: text('id').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.type, t.id] })],
);
