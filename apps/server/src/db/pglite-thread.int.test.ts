import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openPgliteThread, type PgliteThreadClient } from './pglite-thread';

// The embedded database on its thread, through the client Drizzle uses. Every other server test
// goes through it too (createTestApp); these pin down the parts the app relies on by name.
describe('embedded database thread', () => {
  let db: PgliteThreadClient;

  beforeAll(async () => {
    db = openPgliteThread({
      dataDir: 'memory://',
      loadDataDir: new Uint8Array(fs.readFileSync(inject('pgliteTemplate'))),
    });
    await db.query(
      'create table items (id int primary key, label text not null, data jsonb, done boolean, at timestamptz)',
    );
  });
  afterAll(() => db.close());

  it('runs with 32 MB of shared buffers (the start zeroes them all)', async () => {
    expect((await db.query('show shared_buffers')).rows).toEqual([{ shared_buffers: '32MB' }]);
  });

  it('answers queries in object and array row modes with PostgreSQL types', async () => {
    await db.query('insert into items values ($1, $2, $3, $4, $5)', [
      1,
      'one',
      JSON.stringify({ a: [1, 2] }),
      true,
      '2026-01-02T03:04:05Z',
    ]);
    const objects = await db.query<{
      id: number;
      label: string;
      data: unknown;
      done: boolean;
      at: Date;
    }>('select * from items where id = $1', [1]);
    expect(objects.rows).toEqual([
      {
        id: 1,
        label: 'one',
        data: { a: [1, 2] },
        done: true,
        at: new Date('2026-01-02T03:04:05Z'),
      },
    ]);
    const arrays = await db.query('select id, label from items', [], { rowMode: 'array' });
    expect(arrays.rows).toEqual([[1, 'one']]);
    expect(arrays.fields.map((f) => f.name)).toEqual(['id', 'label']);
  });

  it("runs the caller's own parsers, which cannot cross the thread, on the values of their types", async () => {
    const result = await db.query<{ at: unknown; label: unknown }>(
      'select at, label from items where id = 1',
      [],
      {
        parsers: { [types.TIMESTAMPTZ]: (value: string) => `parsed:${value}` },
      },
    );
    expect(result.rows[0]).toEqual({ at: 'parsed:2026-01-02 03:04:05+00', label: 'one' });
  });

  it('reports how affected rows changed', async () => {
    const result = await db.query('update items set label = label where id = 1');
    expect(result.affectedRows).toBe(1);
  });

  it("passes PostgreSQL's error fields with the error, and keeps working after it", async () => {
    const error = await db
      .query('insert into items (id, label) values (1, $1)', ['again'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_pkey', table: 'items' });
    expect(String((error as Error).message)).toMatch(/duplicate key/);
    const syntax = await db.query('selec 1').catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: '42601' });
    expect((await db.query('select count(*)::int as n from items')).rows).toEqual([{ n: 1 }]);
  });

  it('commits a transaction whose callback finishes', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('insert into items (id, label) values (2, $1)', ['two']);
      return (await tx.query<{ n: number }>('select count(*)::int as n from items')).rows[0]!.n;
    });
    expect(result).toBe(2);
    expect((await db.query('select label from items where id = 2')).rows).toEqual([
      { label: 'two' },
    ]);
  });

  it('rolls back a transaction whose callback throws, and rethrows its error', async () => {
    const failure = new Error('changed my mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into items (id, label) values (3, $1)', ['three']);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await db.query('select * from items where id = 3')).rows).toEqual([]);
  });

  it('rolls back a transaction after a failed statement inside it', async () => {
    const error = await db
      .transaction(async (tx) => {
        await tx.query('insert into items (id, label) values (4, $1)', ['four']);
        await tx.query('insert into items (id, label) values (1, $1)', ['duplicate']);
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505' });
    expect((await db.query('select * from items where id = 4')).rows).toEqual([]);
  });

  it('runs a script of several statements, answering the last one, in a transaction of its own', async () => {
    const result = await db.exec(
      `create table scripts (id int primary key, label text); insert into scripts values (1, 'one'); select label from scripts`,
    );
    expect(result.rows).toEqual([{ label: 'one' }]);
    // pg-boss's scripts open and commit their own transaction inside it.
    await db.exec(`BEGIN; insert into scripts values (2, 'two'); COMMIT;`);
    expect((await db.query('select label from scripts where id = 2')).rows).toEqual([
      { label: 'two' },
    ]);
  });

  it('rolls a failed script back whole, and leaves no transaction open behind it', async () => {
    const error = await db
      .exec(
        `BEGIN; insert into scripts values (3, 'three'); insert into scripts values (1, 'again'); COMMIT;`,
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505' });
    expect((await db.query('select * from scripts where id = 3')).rows).toEqual([]);
    // The next statement runs on its own, in no aborted transaction.
    await db.query(`insert into scripts values (4, 'four')`);
    expect((await db.query('select label from scripts where id = 4')).rows).toEqual([
      { label: 'four' },
    ]);
  });

  it('makes a query from outside wait until an open transaction ends', async () => {
    const events: string[] = [];
    let onInserted!: () => void;
    const inserted = new Promise<void>((r) => (onInserted = r));
    let onOutsideSent!: () => void;
    const outsideSent = new Promise<void>((r) => (onOutsideSent = r));
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into items (id, label) values (5, $1)', ['five']);
      events.push('inserted');
      onInserted();
      await outsideSent;
      // Sent after the outside query and answered before it: that one waits for this transaction.
      await tx.query('select 1');
      events.push('later query inside answered');
    });
    await inserted;
    const outside = db.query('select label from items where id = 5').then((result) => {
      events.push('outside answered');
      return result.rows;
    });
    onOutsideSent();
    await transaction;
    expect(await outside).toEqual([{ label: 'five' }]);
    expect(events).toEqual(['inserted', 'later query inside answered', 'outside answered']);
  });

  it('prepares a named statement once, then runs it with each call’s values, as a query', async () => {
    await db.query(
      'create table named_items (id int primary key, data jsonb, done boolean, at timestamptz)',
    );
    const insert = 'insert into named_items values ($1, $2, $3, $4) returning id, data, done, at';
    db.nameStatement(insert, 'test_named_insert');
    const first = await db.query(insert, [1, { a: 1 }, true, '2026-01-02T03:04:05Z']);
    const second = await db.query(insert, [2, null, false, null], { rowMode: 'array' });
    expect(first.rows).toEqual([
      { id: 1, data: { a: 1 }, done: true, at: new Date('2026-01-02T03:04:05Z') },
    ]);
    expect(first.affectedRows).toBe(1);
    expect(second.rows).toEqual([[2, null, false, null]]);
    expect(second.fields.map((f) => f.name)).toEqual(['id', 'data', 'done', 'at']);
    expect((await db.query('select name from pg_prepared_statements')).rows).toContainEqual({
      name: 'test_named_insert',
    });
    // Its caller's parsers, its errors, and the connection usable after one.
    const parsed = await db.query<{ at: unknown }>(
      insert,
      [3, null, null, '2026-01-02T03:04:05Z'],
      {
        parsers: { [types.TIMESTAMPTZ]: (value: string) => `parsed:${value}` },
      },
    );
    expect(parsed.rows[0]?.at).toBe('parsed:2026-01-02 03:04:05+00');
    const error = await db.query(insert, [1, null, null, null]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 'named_items_pkey' });
    expect((await db.query('select count(*)::int as n from named_items')).rows).toEqual([{ n: 3 }]);
  });

  it('makes a named statement from outside wait until an open transaction ends', async () => {
    const select = 'select count(*)::int as n from named_items';
    db.nameStatement(select, 'test_named_count');
    let onInserted!: () => void;
    const inserted = new Promise<void>((r) => (onInserted = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const failure = new Error('rolled back');
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into named_items (id) values (4)');
      onInserted();
      await released;
      throw failure;
    });
    await inserted;
    const outside = db.query(select);
    release();
    await expect(transaction).rejects.toBe(failure);
    // Run inside the transaction on the one connection, it would have counted the row rolled back.
    expect((await outside).rows).toEqual([{ n: 3 }]);
  });

  it('dumps its data directory, which opens as a copy elsewhere', async () => {
    const dump = await db.dumpDataDir();
    const copy = openPgliteThread({
      dataDir: 'memory://',
      loadDataDir: new Uint8Array(await dump.arrayBuffer()),
    });
    try {
      expect((await copy.query('select id from items order by id')).rows).toEqual([
        { id: 1 },
        { id: 2 },
        { id: 5 },
      ]);
    } finally {
      await copy.close();
    }
  });

  it('copies a dump that is a view into a larger buffer, leaving that buffer usable', async () => {
    const template = fs.readFileSync(inject('pgliteTemplate'));
    const shared = new Uint8Array(template.byteLength + 16);
    shared.set(template, 8);
    const view = shared.subarray(8, 8 + template.byteLength);
    const other = openPgliteThread({ dataDir: 'memory://', loadDataDir: view });
    try {
      expect(shared.byteLength).toBe(template.byteLength + 16);
      expect((await other.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await other.close();
    }
  });

  it('refuses every call after close', async () => {
    const other = openPgliteThread({
      dataDir: 'memory://',
      loadDataDir: new Uint8Array(fs.readFileSync(inject('pgliteTemplate'))),
    });
    await other.query('select 1');
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/stopped/);
  });

  it('fails its calls with the reason when the database cannot open', async () => {
    const file = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-thread-')),
      'not-a-directory',
    );
    fs.writeFileSync(file, 'x');
    const broken = openPgliteThread({ dataDir: file });
    await expect(broken.ready).rejects.toThrow('file system error ENOTDIR');
    await expect(broken.query('select 1')).rejects.toThrow('file system error ENOTDIR');
    await broken.close();
  });
});
