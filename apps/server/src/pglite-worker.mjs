// @ts-check
// The embedded database's thread (see db/pglite-thread.ts). PGlite runs PostgreSQL compiled to
// WebAssembly synchronously on whichever thread calls it: here, so that neither its start (most
// of the server's start-up) nor its queries hold up the event loop that serves requests.
//
// Plain JavaScript, type-checked through the JSDoc below, so that a worker thread runs it as it
// is from source (tsx, Vitest) as well as from the build (dist/pglite-worker.js): loaders do not
// reach worker threads on Node 20. It imports nothing of the application's, only PGlite and Node.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { parse, PGlite, protocol } from '@electric-sql/pglite';
import { ERRNO_CODES } from '@electric-sql/pglite/basefs';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';

/** @typedef {import('./db/pglite-protocol').WorkerData} WorkerData */
/** @typedef {import('./db/pglite-protocol').WorkerRequest} WorkerRequest */
/** @typedef {import('./db/pglite-protocol').WorkerReply} WorkerReply */
/** @typedef {import('./db/pglite-protocol').SerializedError} SerializedError */
/** @typedef {import('@electric-sql/pglite').Transaction} Transaction */
/** @typedef {{ tx: Transaction, finish: (commit: boolean) => void, done: Promise<void> }} OpenTransaction */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const options = /** @type {WorkerData} */ (workerData);

/** Emscripten's errno numbers (not the host's) to their names. @type {Map<number, string>} */
const ERRNO_NAMES = new Map(Object.entries(ERRNO_CODES).map(([name, errno]) => [errno, name]));

/** @type {Map<number, OpenTransaction>} */
const transactions = new Map();

/**
 * PostgreSQL's fields (code, detail, constraint…) are own properties of PGlite's error; they
 * travel with the message.
 * @param {unknown} error
 * @returns {SerializedError}
 */
function serializeError(error) {
  // PGlite's file system throws Emscripten's ErrnoError, which is no Error and has no message.
  if (error && typeof error === 'object' && 'errno' in error && typeof error.errno === 'number') {
    const code = ERRNO_NAMES.get(error.errno) ?? `errno ${error.errno}`;
    return { message: `file system error ${code}`, name: 'ErrnoError', code };
  }
  if (!(error instanceof Error)) return { message: String(error), name: 'Error' };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
      fields[key] = value;
  }
  return { ...fields, message: error.message, name: error.name };
}

/** @returns {Blob | undefined} a dump to create the database from, when it is new */
function initialDataDir() {
  if (options.loadDataDir) return new Blob([options.loadDataDir]);
  const { dataDir, templateFile } = options;
  const isNew = dataDir !== 'memory://' && !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!isNew || !templateFile || !fs.existsSync(templateFile)) return undefined;
  return new Blob([fs.readFileSync(templateFile)]);
}

/**
 * Opens a transaction that stays open until an `end` message decides it; resolves once BEGIN ran.
 * @param {PGlite} db
 * @param {number} id
 * @returns {Promise<void>}
 */
function begin(db, id) {
  return new Promise((resolve, reject) => {
    /** @type {(commit: boolean) => void} */
    let finish = () => {};
    /** @type {Promise<boolean>} */
    const decided = new Promise((r) => (finish = r));
    const done = db.transaction(async (tx) => {
      transactions.set(id, { tx, finish, done });
      resolve();
      if (!(await decided)) await tx.rollback();
    });
    // Before the callback ran (BEGIN failed) this refuses the begin; after, `end` reports it.
    done.catch(reject);
  });
}

/** @type {Map<string, Record<number, (value: string) => string>>} */
const parserSets = new Map();

/**
 * Parsers that leave values of these types as PostgreSQL's text, for the caller to parse its way.
 * Every query of a driver asks for the same types: one set is made for each list, not per query.
 * @param {number[]} types
 */
function textParsers(types) {
  const key = types.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(
      types.map((type) => [type, (/** @type {string} */ value) => value]),
    );
    parserSets.set(key, parsers);
  }
  return parsers;
}

/** The named statements prepared so far: their parameters' types, by name. @type {Map<string, { sql: string, paramTypes: number[] }>} */
const named = new Map();

/** @param {Uint8Array[]} messages @returns {Uint8Array} */
function concat(messages) {
  const all = new Uint8Array(messages.reduce((size, message) => size + message.length, 0));
  let at = 0;
  for (const message of messages) {
    all.set(message, at);
    at += message.length;
  }
  return all;
}

/**
 * A named statement (db/prepared.ts's) outside a transaction, as PGlite's own `query` runs one
 * (its locks, its parameters' serializers, its results' parsers, its file-system sync), except
 * that PostgreSQL parses and plans it once, the first time: then each run is one round of bind,
 * describe, execute and sync. PGlite's `query` parses, plans and describes every statement each
 * time, in as many rounds, which on this thread cost a hot statement more than its work.
 * @param {PGlite} db
 * @param {{ name: string, sql: string, params: unknown[], rowMode: 'array' | 'object', textTypes: number[] }} request
 */
function namedQuery(db, { name, sql, params, rowMode, textTypes }) {
  const serialize = protocol.serialize;
  const run = (/** @type {Uint8Array[]} */ messages) =>
    db.execProtocolStream(concat(messages), { syncToFs: false });
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      let statement = named.get(name);
      if (statement?.sql !== sql) {
        const described = await run([
          ...(statement ? [serialize.close({ type: 'S', name })] : []),
          serialize.parse({ name, text: sql }),
          serialize.describe({ type: 'S', name }),
          serialize.sync(),
        ]);
        statement = { sql, paramTypes: parse.parseDescribeStatementResults(described) };
        named.set(name, statement);
      }
      const { paramTypes } = statement;
      const values = params.map((value, index) => {
        if (value === null || value === undefined) return null;
        const serializer = db.serializers[/** @type {number} */ (paramTypes[index])];
        return serializer ? serializer(value) : String(value);
      });
      let messages;
      try {
        messages = await run([
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]);
      } catch (error) {
        // As PGlite's `query` reports a failed statement: with its SQL.
        if (error && typeof error === 'object') Object.assign(error, { query: sql });
        throw error;
      }
      await db.syncToFs();
      const options = { rowMode, parsers: textParsers(textTypes) };
      const [result] = parse.parseResults(messages, db.parsers, options);
      return /** @type {NonNullable<typeof result>} */ (result);
    }),
  );
}

/**
 * @param {PGlite} db
 * @param {WorkerRequest} request
 * @returns {Promise<unknown>}
 */
async function handle(db, request) {
  switch (request.op) {
    case 'query': {
      if (request.name !== undefined && request.tx === undefined) {
        const result = await namedQuery(db, { ...request, name: request.name });
        return {
          rows: result.rows,
          affectedRows: result.affectedRows,
          fields: result.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })),
        };
      }
      const target = request.tx === undefined ? db : transactions.get(request.tx)?.tx;
      if (!target) throw new Error('The transaction has ended');
      const result = await target.query(request.sql, request.params, {
        rowMode: request.rowMode,
        parsers: textParsers(request.textTypes),
      });
      return {
        rows: result.rows,
        affectedRows: result.affectedRows,
        fields: result.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })),
      };
    }
    case 'exec': {
      // A script of several statements (pg-boss's maintenance is one, from its own BEGIN to its
      // COMMIT) runs in a transaction of its own: one that fails midway is rolled back whole,
      // never left open and aborted on the one connection every query shares. Its own BEGIN and
      // COMMIT, inside, only draw a warning.
      const results = await db.transaction((tx) => tx.exec(request.sql));
      const last = results.at(-1);
      return {
        rows: last?.rows ?? [],
        affectedRows: last?.affectedRows,
        fields: (last?.fields ?? []).map(({ name, dataTypeID }) => ({ name, dataTypeID })),
      };
    }
    case 'begin':
      await begin(db, request.id);
      return request.id;
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error('The transaction has ended');
      transactions.delete(request.tx);
      open.finish(request.commit);
      await open.done;
      return undefined;
    }
    case 'dump': {
      const dump = await db.dumpDataDir('none');
      return new Uint8Array(await dump.arrayBuffer());
    }
    case 'close':
      await db.close();
      return undefined;
  }
}

// PostgreSQL's 128 MB default of shared buffers is memory WebAssembly zeroes page by page at every
// start: measured here, 60 ms of a 0.55 s start and 107 MB of resident memory (317 MB against 210),
// for a database that reads what it lacks from the operating system's file cache anyway. 32 MB changes neither the chat load's replies per second
// nor its p99 in `npm run bench`; a database that outgrows that belongs on PostgreSQL.
const SHARED_BUFFERS = '32MB';

try {
  const db = new PGlite(options.dataDir, {
    loadDataDir: initialDataDir(),
    // The stored log's search (migration 0013): accents folded, words found by trigrams.
    extensions: { pg_trgm, unaccent },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  });
  await db.waitReady;
  port.on('message', (/** @type {WorkerRequest} */ request) => {
    handle(db, request).then(
      (result) => {
        /** @type {WorkerReply} */
        const reply = { id: request.id, ok: true, result };
        port.postMessage(
          reply,
          result instanceof Uint8Array ? [/** @type {ArrayBuffer} */ (result.buffer)] : [],
        );
      },
      (error) => {
        /** @type {WorkerReply} */
        const reply = { id: request.id, ok: false, error: serializeError(error) };
        port.postMessage(reply);
      },
    );
  });
  /** @type {WorkerReply} */
  const ready = { id: 0, ok: true, result: 'ready' };
  port.postMessage(ready);
} catch (error) {
  /** @type {WorkerReply} */
  const failed = { id: 0, ok: false, error: serializeError(error) };
  port.postMessage(failed);
}
