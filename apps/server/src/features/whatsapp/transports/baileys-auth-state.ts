/**
 * Baileys' auth state (its credentials and every signal key) in the database instead of files:
 * one row of creds per account, one row per key. Each `keys.set` is one transaction (a null value
 * deletes the key), and a bounded LRU cache, shared by every account of the process, answers the
 * reads Baileys repeats on every message. Only the instance that owns an account's connection reads
 * or writes its keys, so the cache never holds another writer's stale value. Writes of one socket's
 * state happen in the order they were asked for.
 */
import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';
import { LRUCache } from 'lru-cache';
import type { Db } from '@/db/client';
import {
  deleteAuth,
  readCreds,
  readKeys,
  writeCreds,
  writeKeys,
} from '../whatsapp-auth.repository';

/** Stands for "not in the database" in the cache, which takes no undefined. */
const ABSENT = '';

export type AuthKeyCache = LRUCache<string, string>;

export function createAuthKeyCache(max = 20_000): AuthKeyCache {
  return new LRUCache<string, string>({ max });
}

const cacheKey = (accountId: string, type: string, id: string) =>
  `${accountId}\u0000${type}\u0000${id}`;

const serialise = (value: unknown) => JSON.stringify(value, BufferJSON.replacer);

function deserialise<T extends keyof SignalDataTypeMap>(
  type: T,
  text: string,
): SignalDataTypeMap[T] {
  const value: unknown = JSON.parse(text, BufferJSON.reviver);
  // Baileys reads this one as a protobuf object, not plain JSON.
  if (type === 'app-state-sync-key') {
    return proto.Message.AppStateSyncKeyData.fromObject(
      value as object,
    ) as unknown as SignalDataTypeMap[T];
  }
  return value as SignalDataTypeMap[T];
}

/**
 * The stored auth state of `accountId`, or new credentials when it has none (not written until
 * Baileys first updates them). `saveCreds` writes the current credentials.
 */
export async function loadAuthState({
  db,
  accountId,
  cache,
}: {
  db: Db;
  accountId: string;
  cache: AuthKeyCache;
}): Promise<{
  state: AuthenticationState;
  saveCreds: () => Promise<void>;
  settled: () => Promise<void>;
  forget: () => Promise<void>;
}> {
  const stored = await readCreds({ db, accountId });
  const creds: AuthenticationCreds = stored
    ? JSON.parse(stored, BufferJSON.reviver)
    : initAuthCreds();
  let writes: Promise<unknown> = Promise.resolve();
  /** Set once the state is deleted: a socket still closing may write again, and must not bring it back. */
  let forgotten = false;
  const inOrder = (write: () => Promise<void>): Promise<void> => {
    const run = () => (forgotten ? Promise.resolve() : write());
    const next = writes.then(run, run);
    writes = next.catch(() => {});
    return next;
  };

  const keys: SignalKeyStore = {
    async get(type, ids) {
      const found: { [id: string]: SignalDataTypeMap[typeof type] } = {};
      const missing: string[] = [];
      for (const id of ids) {
        const cached = cache.get(cacheKey(accountId, type, id));
        if (cached === undefined) missing.push(id);
        else if (cached !== ABSENT) found[id] = deserialise(type, cached);
      }
      if (missing.length > 0) {
        const rows = await readKeys({ db, accountId, type, ids: missing });
        for (const id of missing) {
          const text = rows.get(id);
          // A write that committed meanwhile has put the newer value in the cache: keep it.
          if (!cache.has(cacheKey(accountId, type, id)))
            cache.set(cacheKey(accountId, type, id), text ?? ABSENT);
          if (text !== undefined) found[id] = deserialise(type, text);
        }
      }
      return found;
    },
    async set(data: SignalDataSet) {
      const changes: { type: string; id: string; value: string | null }[] = [];
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values ?? {})) {
          changes.push({
            type,
            id,
            value: value === null || value === undefined ? null : serialise(value),
          });
        }
      }
      if (changes.length === 0) return;
      await inOrder(async () => {
        await writeKeys({ db, accountId, changes });
        for (const { type, id, value } of changes)
          cache.set(cacheKey(accountId, type, id), value ?? ABSENT);
      });
    },
  };

  return {
    state: { creds, keys },
    saveCreds: () =>
      inOrder(() =>
        writeCreds({ db, accountId, creds: serialise(creds), meId: creds.me?.id ?? null }),
      ),
    /** Resolves once every write asked for so far has ended. */
    settled: () => inOrder(async () => {}),
    /** Deletes the stored state after the writes already asked for, and ignores any later one. */
    forget: async () => {
      await inOrder(() => deleteAuthState({ db, accountId, cache }));
      forgotten = true;
    },
  };
}

/** Deletes the account's stored auth state and drops its keys from the cache. */
export async function deleteAuthState({
  db,
  accountId,
  cache,
}: {
  db: Db;
  accountId: string;
  cache: AuthKeyCache;
}) {
  await deleteAuth({ db, accountId });
  forgetCachedKeys(cache, accountId);
}

/**
 * Drops the account's keys from the cache. An instance that takes an account (back) over calls it:
 * while another instance owned it, that one wrote keys this cache has not seen.
 */
export function forgetCachedKeys(cache: AuthKeyCache, accountId: string) {
  const prefix = `${accountId}\u0000`;
  for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
}
