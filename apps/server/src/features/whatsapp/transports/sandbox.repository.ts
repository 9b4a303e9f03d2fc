import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { SandboxPhoneEvent } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { prepared } from '@/db/prepared';
import {
  whatsappSandboxEvents,
  whatsappSandboxLinks,
  whatsappSandboxOffline,
  whatsappSandboxPairingCodes,
  whatsappSandboxPairings,
  type SandboxQueued,
} from '../whatsapp.table';

export async function findLink({ db, userId }: { db: Db; userId: string }) {
  const [row] = await db
    .select()
    .from(whatsappSandboxLinks)
    .where(eq(whatsappSandboxLinks.userId, userId))
    .limit(1);
  return row;
}

/** The accounts linked to these sandbox numbers: every contact's message looks one up. */
export async function findLinksByPhone({ db, phones }: { db: Db; phones: string[] }) {
  const statement = prepared(db, 'whatsapp_sandbox_links_by_phone', (db) =>
    db
      .select()
      .from(whatsappSandboxLinks)
      .where(sql`${whatsappSandboxLinks.phone} = any(${sql.placeholder('phones')}::text[])`)
      .prepare('whatsapp_sandbox_links_by_phone'),
  );
  return statement.execute({ phones });
}

export async function listLinkedUserIds({ db }: { db: Db }): Promise<string[]> {
  const rows = await db
    .select({ userId: whatsappSandboxLinks.userId })
    .from(whatsappSandboxLinks)
    .orderBy(asc(whatsappSandboxLinks.linkedAt));
  return rows.map((r) => r.userId);
}

/** The account's QR now carries this code: the one before it stops working. */
export async function replacePairing({
  db,
  userId,
  tokenHash,
  now,
}: {
  db: Db;
  userId: string;
  tokenHash: string;
  now: Date;
}) {
  await db
    .insert(whatsappSandboxPairings)
    .values({ userId, tokenHash, createdAt: now })
    .onConflictDoUpdate({
      target: whatsappSandboxPairings.userId,
      set: { tokenHash, createdAt: now },
    });
}

export async function deletePairing({ db, userId }: { db: Db; userId: string }) {
  await db.delete(whatsappSandboxPairings).where(eq(whatsappSandboxPairings.userId, userId));
}

/**
 * Uses a pairing code: the account it belonged to is linked to `phone`, and the code is gone.
 * `missing` for a code that is wrong, used or replaced; `taken` when the number is another
 * account's (nothing changes then).
 */
export async function pair({
  db,
  tokenHash,
  phone,
  now,
}: {
  db: Db;
  tokenHash: string;
  phone: string;
  now: Date;
}): Promise<{ userId: string } | 'missing' | 'taken'> {
  return db.transaction(async (tx) => {
    const [pairing] = await tx
      .select()
      .from(whatsappSandboxPairings)
      .where(eq(whatsappSandboxPairings.tokenHash, tokenHash))
      .for('update')
      .limit(1);
    if (!pairing) return 'missing';
    const [holder] = await tx
      .select()
      .from(whatsappSandboxLinks)
      .where(eq(whatsappSandboxLinks.phone, phone))
      .limit(1);
    if (holder && holder.userId !== pairing.userId) return 'taken';
    await tx
      .delete(whatsappSandboxPairings)
      .where(eq(whatsappSandboxPairings.userId, pairing.userId));
    await tx
      .insert(whatsappSandboxLinks)
      .values({ userId: pairing.userId, phone, linkedAt: now })
      .onConflictDoUpdate({ target: whatsappSandboxLinks.userId, set: { phone, linkedAt: now } });
    return { userId: pairing.userId };
  });
}

/** The account's pairing code for `phone` now (its hash): the one before it stops working. */
export async function replacePairingCode({
  db,
  userId,
  phone,
  codeHash,
  now,
}: {
  db: Db;
  userId: string;
  phone: string;
  codeHash: string;
  now: Date;
}) {
  await db
    .insert(whatsappSandboxPairingCodes)
    .values({ userId, phone, codeHash, createdAt: now })
    .onConflictDoUpdate({
      target: whatsappSandboxPairingCodes.userId,
      set: { phone, codeHash, createdAt: now },
    });
}

export async function deletePairingCode({ db, userId }: { db: Db; userId: string }) {
  await db
    .delete(whatsappSandboxPairingCodes)
    .where(eq(whatsappSandboxPairingCodes.userId, userId));
}

/**
 * The phone `phone` types a pairing code: the account that was given it for that number is
 * linked, and its codes (this one and its QR's) are gone. `missing` for a code that is wrong,
 * replaced, for another number, or (with `userId`) another account's; `taken` when the number is
 * another account's (nothing changes then).
 */
export async function pairWithCode({
  db,
  codeHash,
  phone,
  userId,
  now,
}: {
  db: Db;
  codeHash: string;
  phone: string;
  userId?: string;
  now: Date;
}): Promise<{ userId: string } | 'missing' | 'taken'> {
  return db.transaction(async (tx) => {
    const [code] = await tx
      .select()
      .from(whatsappSandboxPairingCodes)
      .where(eq(whatsappSandboxPairingCodes.codeHash, codeHash))
      .for('update')
      .limit(1);
    if (!code || code.phone !== phone || (userId !== undefined && code.userId !== userId))
      return 'missing';
    const [holder] = await tx
      .select()
      .from(whatsappSandboxLinks)
      .where(eq(whatsappSandboxLinks.phone, phone))
      .limit(1);
    if (holder && holder.userId !== code.userId) return 'taken';
    await tx
      .delete(whatsappSandboxPairingCodes)
      .where(eq(whatsappSandboxPairingCodes.userId, code.userId));
    await tx.delete(whatsappSandboxPairings).where(eq(whatsappSandboxPairings.userId, code.userId));
    await tx
      .insert(whatsappSandboxLinks)
      .values({ userId: code.userId, phone, linkedAt: now })
      .onConflictDoUpdate({ target: whatsappSandboxLinks.userId, set: { phone, linkedAt: now } });
    return { userId: code.userId };
  });
}

/** Unlinks the account (its "auth state" goes, and what waited for it): whether it was linked. */
export async function deleteLink({ db, userId }: { db: Db; userId: string }): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.delete(whatsappSandboxOffline).where(eq(whatsappSandboxOffline.userId, userId));
    const rows = await tx
      .delete(whatsappSandboxLinks)
      .where(eq(whatsappSandboxLinks.userId, userId))
      .returning({ userId: whatsappSandboxLinks.userId });
    return rows.length > 0;
  });
}

/** The phone's link goes down or comes back. */
export async function setOnline({
  db,
  userId,
  online,
}: {
  db: Db;
  userId: string;
  online: boolean;
}) {
  await db
    .update(whatsappSandboxLinks)
    .set({ online })
    .where(eq(whatsappSandboxLinks.userId, userId));
}

/**
 * Keeps a contact's message for the account while its phone's link is down, unless the link came
 * back meanwhile: whether it was kept (if not, it is to be delivered now).
 */
export async function queueOffline({
  db,
  userId,
  message,
}: {
  db: Db;
  userId: string;
  message: SandboxQueued;
}): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Locked: the link coming back waits for this message, then delivers it with the others.
    const [down] = await tx
      .select({ userId: whatsappSandboxLinks.userId })
      .from(whatsappSandboxLinks)
      .where(and(eq(whatsappSandboxLinks.userId, userId), eq(whatsappSandboxLinks.online, false)))
      .for('update');
    if (!down) return false;
    await tx.insert(whatsappSandboxOffline).values({ userId, message });
    return true;
  });
}

/** The messages (and changes to them) waiting for the account, oldest first, at most `limit`. */
export async function listQueued({ db, userId, limit }: { db: Db; userId: string; limit: number }) {
  return db
    .select()
    .from(whatsappSandboxOffline)
    .where(eq(whatsappSandboxOffline.userId, userId))
    .orderBy(asc(whatsappSandboxOffline.seq))
    .limit(limit);
}

/** Forgets the messages waiting for the account up to `seq`, once delivered. */
export async function deleteQueued({ db, userId, seq }: { db: Db; userId: string; seq: number }) {
  await db
    .delete(whatsappSandboxOffline)
    .where(and(eq(whatsappSandboxOffline.userId, userId), lte(whatsappSandboxOffline.seq, seq)));
}

export async function insertEvent({
  db,
  userId,
  phone,
  event,
}: {
  db: Db;
  userId: string;
  phone: string;
  event: SandboxPhoneEvent;
}) {
  await db.insert(whatsappSandboxEvents).values({ userId, phone, event });
}

/** What the number sent out while `userId` had it linked, oldest first. */
export async function listEvents({
  db,
  phone,
  userId,
}: {
  db: Db;
  phone: string;
  userId: string;
}): Promise<SandboxPhoneEvent[]> {
  const rows = await db
    .select({ event: whatsappSandboxEvents.event })
    .from(whatsappSandboxEvents)
    .where(and(eq(whatsappSandboxEvents.phone, phone), eq(whatsappSandboxEvents.userId, userId)))
    .orderBy(asc(whatsappSandboxEvents.seq));
  return rows.map((r) => r.event);
}

/**
 * What an account's number did, as `recordWrites` records it: a send (a `message` event), or
 * anything else it tells the phone (typing, a read mark).
 */
export type SandboxWrite = {
  userId: string;
  event: SandboxPhoneEvent;
  /** With a send: the contact's messages the number marked read once it was sent. */
  read?: Extract<SandboxPhoneEvent, { type: 'read' }>;
};

/**
 * What the accounts' numbers did, recorded in one statement, in the order given (each event's
 * `seq` follows it). A send: the same message id already delivered is the same message (nothing
 * recorded, `duplicate`); otherwise, while the number's `fail-sends` last, a send is recorded
 * failed with their code (`failed`), one fewer left each; its `read`, recorded after it unless it
 * failed. `linked` is false when the account has no number linked (nothing recorded). One answer
 * per write, in their order.
 */
export async function recordWrites({
  db,
  writes,
}: {
  db: Db;
  writes: SandboxWrite[];
}): Promise<{ linked: boolean; duplicate: boolean; failed: string | null }[]> {
  const statement = prepared(db, 'whatsapp_sandbox_record_writes', (db) => {
    const l = whatsappSandboxLinks;
    const e = whatsappSandboxEvents;
    const column = (name: string) => sql.identifier(name);
    const sent = db.$with('sent', {}).as(
      sql`select * from json_to_recordset(${sql.placeholder('writes')}::json)
        as x(n int, user_id uuid, send boolean, id text, event jsonb, read jsonb)`,
    );
    const link = db.$with('link', {}).as(
      sql`select ${l.userId} as user_id, ${l.phone} as phone from ${l}
        where ${l.userId} in (select user_id from sent)`,
    );
    // The links whose fail-sends last, locked (in one order, whichever instance locks them) while
    // they are counted down: another statement's sends of the number wait for this one. The
    // others are not locked: locking writes the row.
    const failingLink = db.$with('failing_link', {}).as(
      sql`select ${l.userId} as user_id, ${l.failSends} as fail_sends,
          coalesce(${l.failCode}, 'unknown') as code
        from ${l} where ${l.userId} in (select user_id from sent) and ${l.failSends} > 0
        order by ${l.userId} for update`,
    );
    // Each write, and whether a send's id was delivered already: looked up one send at a time (a
    // subquery in the select list, by the partial index whatsapp_sandbox_events_sent_idx), never
    // by reading the phone's events whole.
    const looked = db.$with('looked', {}).as(
      sql`select sent.*, link.phone, sent.send and coalesce((select true from ${e}
          where ${e.userId} = link.user_id and ${e.phone} = link.phone
            and ${e.event} ->> 'type' = 'message' and ${e.event} ->> 'id' = sent.id
            and ${e.event} ->> 'failed' is null
          limit 1), false) as dup
        from sent join link on link.user_id = sent.user_id`,
    );
    // What is still to record; each number's sends counted in order: the first `fail_sends` fail.
    const fresh = db.$with('fresh', {}).as(
      sql`select looked.*, failing_link.code,
          looked.send and coalesce(row_number() over (partition by looked.user_id, looked.send
            order by looked.n) <= failing_link.fail_sends, false) as failing
        from looked left join failing_link on failing_link.user_id = looked.user_id
        where not looked.dup`,
    );
    const counted = db.$with('counted', {}).as(
      sql`update ${l} set ${column(l.failSends.name)} = greatest(failing_link.fail_sends - f.count, 0)
        from failing_link, (select user_id, count(*) filter (where failing) as count from fresh group by user_id) as f
        where ${l.userId} = failing_link.user_id and f.user_id = failing_link.user_id and f.count > 0
        returning ${l.userId}`,
    );
    // One insert, in order: each event, a send's read mark after it (unless the send failed).
    const recorded = db.$with('recorded', {}).as(
      sql`insert into ${e} (${column(e.userId.name)}, ${column(e.phone.name)}, ${column(e.event.name)})
        select x.user_id, x.phone, x.event from (
          select n, 1 as part, user_id, phone, case when failing
            then event || jsonb_build_object('failed', code) else event end as event
          from fresh
          union all
          select n, 2, user_id, phone, read from fresh where read is not null and not failing
        ) as x
        order by x.n, x.part
        returning seq`,
    );
    return (
      db
        .with(sent, link, failingLink, looked, fresh, counted, recorded)
        // The writes run whatever the select reads (PostgreSQL runs a data-modifying CTE whole).
        .select({
          n: sql<number>`sent.n`,
          // A write of an account with a number linked was looked at (and recorded, or a duplicate).
          linked: sql<boolean>`looked.n is not null`,
          duplicate: sql<boolean>`coalesce(looked.dup, false)`,
          failed: sql<string | null>`case when fresh.failing then fresh.code end`,
        })
        .from(sql`sent left join looked on looked.n = sent.n left join fresh on fresh.n = sent.n`)
        .orderBy(sql`sent.n`)
        .prepare('whatsapp_sandbox_record_writes')
    );
  });
  const rows = await statement.execute({
    writes: JSON.stringify(
      writes.map(({ userId, event, read }, n) => ({
        n,
        user_id: userId,
        send: event.type === 'message',
        id: event.type === 'message' ? event.id : null,
        event,
        read: read ?? null,
      })),
    ),
  });
  return rows.map((row) => ({
    linked: row.linked === true,
    duplicate: row.duplicate === true,
    failed: row.failed ?? null,
  }));
}

/** The next `count` sends of the number `phone` fail with `code` (0: none do). */
export async function setFailSends({
  db,
  phone,
  count,
  code,
}: {
  db: Db;
  phone: string;
  count: number;
  code: string;
}) {
  await db
    .update(whatsappSandboxLinks)
    .set({ failSends: count, failCode: code })
    .where(eq(whatsappSandboxLinks.phone, phone));
}
