import {
  whatsappAuthCreds,
  whatsappAuthKeys
} from "./chunk-NSF64HGU.js";

// src/features/whatsapp/whatsapp-auth.repository.ts
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
var ROWS_PER_INSERT = 1e3;
async function readCreds({ db, accountId }) {
  const [row] = await db.select({ creds: whatsappAuthCreds.creds }).from(whatsappAuthCreds).where(eq(whatsappAuthCreds.accountId, accountId));
  return row?.creds;
}
async function writeCreds({
  db,
  accountId,
  creds,
  meId
}) {
  await db.insert(whatsappAuthCreds).values({ accountId, creds, meId }).onConflictDoUpdate({
    target: whatsappAuthCreds.accountId,
    set: { creds, meId, updatedAt: sql`now()` }
  });
}
async function readKeys({
  db,
  accountId,
  type,
  ids
}) {
  if (ids.length === 0) return /* @__PURE__ */ new Map();
  const rows = await db.select({ id: whatsappAuthKeys.id, value: whatsappAuthKeys.value }).from(whatsappAuthKeys).where(
    and(eq(whatsappAuthKeys.accountId, accountId), eq(whatsappAuthKeys.type, type), inArray(whatsappAuthKeys.id, ids))
  );
  return new Map(rows.map((row) => [row.id, row.value]));
}
async function writeKeys({
  db,
  accountId,
  changes
}) {
  const upserts = changes.filter((c) => c.value !== null);
  const deletes = /* @__PURE__ */ new Map();
  for (const change of changes) {
    if (change.value === null) deletes.set(change.type, [...deletes.get(change.type) ?? [], change.id]);
  }
  await db.transaction(async (tx) => {
    for (const [type, ids] of deletes) {
      await tx.delete(whatsappAuthKeys).where(
        and(eq(whatsappAuthKeys.accountId, accountId), eq(whatsappAuthKeys.type, type), inArray(whatsappAuthKeys.id, ids))
      );
    }
    for (let start = 0; start < upserts.length; start += ROWS_PER_INSERT) {
      await tx.insert(whatsappAuthKeys).values(upserts.slice(start, start + ROWS_PER_INSERT).map((c) => ({ accountId, ...c }))).onConflictDoUpdate({
        target: [whatsappAuthKeys.accountId, whatsappAuthKeys.type, whatsappAuthKeys.id],
        set: { value: sql`excluded.value` }
      });
    }
  });
}
async function deleteAuth({ db, accountId }) {
  await db.transaction(async (tx) => {
    await tx.delete(whatsappAuthKeys).where(eq(whatsappAuthKeys.accountId, accountId));
    await tx.delete(whatsappAuthCreds).where(eq(whatsappAuthCreds.accountId, accountId));
  });
}
async function linkedAccountIds({ db }) {
  const rows = await db.select({ accountId: whatsappAuthCreds.accountId }).from(whatsappAuthCreds).where(isNotNull(whatsappAuthCreds.meId));
  return rows.map((row) => row.accountId);
}

export {
  readCreds,
  writeCreds,
  readKeys,
  writeKeys,
  deleteAuth,
  linkedAccountIds
};
//# sourceMappingURL=chunk-P47EXQ27.js.map
