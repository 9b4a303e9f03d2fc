// src/features/auth/auth.table.ts
import { sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp, uniqueIndex, uuid, index } from "drizzle-orm/pg-core";
var users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** As the person typed it; uniqueness and look-ups are case-insensitive. */
    email: text("email").notNull(),
    username: text("username").notNull(),
    avatar: text("avatar"),
    role: text("role", { enum: ["admin", "user"] }).notNull(),
    originalRole: text("original_role", { enum: ["admin", "user"] }).notNull(),
    passwordHash: text("password_hash").notNull(),
    /** Set for accounts an admin made for one agent only: they cannot hire others. */
    singleAgentName: text("single_agent_name"),
    /** The language the person chose (or registered in): mails to them are written in it. */
    language: text("language", { enum: ["pt-BR", "en-US", "es-ES"] }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    uniqueIndex("users_username_key").on(t.username)
  ]
);
var sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The browser's User-Agent at sign-in, trimmed and capped: the sessions list names the device. */
    userAgent: text("user_agent")
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)]
);
var emailCodes = pgTable(
  "email_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Lower-cased. */
    email: text("email").notNull(),
    purpose: text("purpose", { enum: ["registration", "password-reset"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true })
  },
  (t) => [uniqueIndex("email_codes_email_purpose_key").on(t.email, t.purpose)]
);

// src/features/whatsapp/whatsapp-auth.table.ts
import { pgTable as pgTable2, primaryKey, text as text2, timestamp as timestamp2, uuid as uuid2 } from "drizzle-orm/pg-core";
var whatsappAuthCreds = pgTable2("whatsapp_auth_creds", {
  accountId: uuid2("account_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  creds: text2("creds").notNull(),
  /** The linked device's JID once a phone has scanned the QR; null while not yet linked. */
  meId: text2("me_id"),
  updatedAt: timestamp2("updated_at", { withTimezone: true }).notNull().defaultNow()
});
var whatsappAuthKeys = pgTable2(
  "whatsapp_auth_keys",
  {
    accountId: uuid2("account_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    type: text2("type").notNull(),
    id: text2("id").notNull(),
    value: text2("value").notNull()
  },
  (t) => [primaryKey({ columns: [t.accountId, t.type, t.id] })]
);

export {
  users,
  sessions,
  emailCodes,
  whatsappAuthCreds,
  whatsappAuthKeys
};
//# sourceMappingURL=chunk-NSF64HGU.js.map
