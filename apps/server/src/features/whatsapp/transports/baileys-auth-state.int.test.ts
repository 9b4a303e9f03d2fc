import { proto } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countKeys, readCreds } from '@/features/whatsapp/whatsapp-auth.repository';
import { insertAccountRow } from '../../../../test/factories';
import { createTestDatabase } from '../../../../test/helpers';
import { createAuthKeyCache, forgetCachedKeys, loadAuthState } from './baileys-auth-state';

// Baileys' auth state in the database: what goes in comes back the same, a keys.set is all or
// nothing, and the cache is what another instance's writes must be cleared from.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const createAccount = () => insertAccountRow(database.db, 'auth');

const keyPair = () => ({
  public: Buffer.from('a'.repeat(32)),
  private: Buffer.from('b'.repeat(32)),
});

describe('Baileys auth state in the database', () => {
  it('gives back creds and keys as they were written, buffers and protobufs included; null deletes', async () => {
    const accountId = await createAccount();
    const first = await loadAuthState({ db: database.db, accountId, cache: createAuthKeyCache() });
    expect(await readCreds({ db: database.db, accountId })).toBeUndefined();
    first.state.creds.me = { id: '5511999990000:1@s.whatsapp.net' };
    await first.saveCreds();
    await first.state.keys.set({
      'pre-key': { '1': keyPair(), '2': keyPair() },
      'app-state-sync-key': {
        k1: proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from([1, 2, 3]) }),
      },
    });
    await first.state.keys.set({ 'pre-key': { '2': null } });

    const again = await loadAuthState({ db: database.db, accountId, cache: createAuthKeyCache() });
    expect(again.state.creds.me?.id).toBe('5511999990000:1@s.whatsapp.net');
    expect(Buffer.isBuffer(again.state.creds.noiseKey.public)).toBe(true);
    expect(Buffer.from(again.state.creds.noiseKey.public)).toEqual(
      Buffer.from(first.state.creds.noiseKey.public),
    );
    const preKeys = await again.state.keys.get('pre-key', ['1', '2']);
    expect(Object.keys(preKeys)).toEqual(['1']);
    expect(Buffer.from(preKeys['1']!.public)).toEqual(Buffer.from('a'.repeat(32)));
    const { k1 } = await again.state.keys.get('app-state-sync-key', ['k1']);
    expect(k1).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(k1!.keyData!)).toEqual(Buffer.from([1, 2, 3]));
  });

  it('writes a keys.set in one transaction: one bad key and none of it is written', async () => {
    const accountId = await createAccount();
    const { state } = await loadAuthState({
      db: database.db,
      accountId,
      cache: createAuthKeyCache(),
    });
    await state.keys.set({ 'pre-key': { '1': keyPair() } });

    // PostgreSQL refuses a NUL character in text: the last row fails after the others went in.
    await expect(
      state.keys.set({
        'pre-key': { '1': null, '3': keyPair() },
        session: { 'bad\u0000id': Buffer.from('x') },
      }),
    ).rejects.toThrow();
    expect(await countKeys({ db: database.db, accountId, type: 'pre-key' })).toBe(1);
    expect(Object.keys(await state.keys.get('pre-key', ['1', '3']))).toEqual(['1']);
  });

  it('reads through its cache until the account is taken (back) over', async () => {
    const accountId = await createAccount();
    const cacheA = createAuthKeyCache();
    const a = await loadAuthState({ db: database.db, accountId, cache: cacheA });
    const b = await loadAuthState({ db: database.db, accountId, cache: createAuthKeyCache() });
    await a.state.keys.set({ session: { s: Buffer.from('old') } });
    await b.state.keys.set({ session: { s: Buffer.from('new') } });

    expect(String((await a.state.keys.get('session', ['s'])).s)).toBe('old');
    forgetCachedKeys(cacheA, accountId);
    expect(String((await a.state.keys.get('session', ['s'])).s)).toBe('new');
  });
});
