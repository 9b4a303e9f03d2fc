import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { ParserOptions, PGlite, RowMode } from '@electric-sql/pglite';
import { PGLITE_WORKER } from '@/paths';
import type {
  QueryResult,
  SerializedError,
  WorkerData,
  WorkerReply,
  WorkerRequest,
} from './pglite-protocol';

/** A request before it is numbered: Omit applied to each member of the union. */
type Unnumbered<R> = R extends unknown ? Omit<R, 'id'> : never;
type Request = Unnumbered<WorkerRequest>;

type QueryOptions = { rowMode?: RowMode; parsers?: ParserOptions };

/** What Drizzle's PGlite driver uses of a PGlite client, and what the server uses besides. */
export type PgliteThreadClient = {
  /** Settles when the database has opened, or failed to (every call fails with that reason too). */
  ready: Promise<void>;
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult & { rows: T[] }>;
  transaction<T>(callback: (tx: Pick<PgliteThreadClient, 'query'>) => Promise<T>): Promise<T>;
  /**
   * Runs SQL of one or more statements without parameters, in a transaction of its own; the
   * last statement's result.
   */
  exec<T = Record<string, unknown>>(sql: string): Promise<QueryResult & { rows: T[] }>;
  dumpDataDir(): Promise<Blob>;
  close(): Promise<void>;
  /**
   * Has the thread prepare `sql` once, as `name`, and then only run it (outside a transaction):
   * db/prepared.ts's statements, which PostgreSQL would otherwise parse and plan at every run.
   */
  nameStatement(sql: string, name: string): void;
};

/**
 * Embedded PGlite on a thread of its own (src/pglite-worker.mjs), behind the part of PGlite's client
 * interface Drizzle uses: query (with per-type parsers) and transaction. PostgreSQL in WebAssembly
 * runs synchronously on the thread that calls it; on the event loop's thread its second-long
 * start and every query would hold up all requests, and the start could not overlap the loading
 * of the rest of the server. The client takes calls at once: they wait in the thread's queue
 * until the database is open.
 */
export function openPgliteThread(data: WorkerData): PgliteThreadClient {
  // PGlite is 9 MB of WebAssembly. V8 compiles it with its baseline compiler (Liftoff), then
  // compiles the functions that run most again with TurboFan, in the background, and the thread
  // running PGlite waits for that work right after the database opens: a good part of the start,
  // and the whole of the start's second core. Liftoff's code answers our queries as fast (compare
  // the chat replies and start-up rows of `npm run bench` with and without the flag), so the
  // second compilation is left out. The flag is the process's,
  // and PGlite is the only WebAssembly in it; it is read when the module is compiled, in the thread.
  v8.setFlagsFromString('--liftoff-only');
  // A dump is moved to the thread rather than copied, when it is the whole of its buffer (a view
  // into a shared one, like a small Buffer from Node's pool, is copied: moving would detach it).
  const dump = data.loadDataDir;
  const movable =
    dump &&
    dump.byteOffset === 0 &&
    dump.byteLength === dump.buffer.byteLength &&
    dump.buffer instanceof ArrayBuffer;
  const options = { workerData: data, transferList: movable ? [dump.buffer] : [] };
  const worker = new Worker(PGLITE_WORKER, options);
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  let nextId = 1;
  let failure: Error | undefined;
  /** The named statements' SQL, and their names (see nameStatement). */
  const names = new Map<string, string>();

  const ready = new Promise<void>((resolve, reject) => {
    pending.set(0, {
      resolve: () => resolve(),
      reject: (error) => {
        reject(error);
        stop(error);
        void worker.terminate();
      },
    });
  });
  ready.catch(() => {}); // the same failure reaches every call; `ready` need not be awaited
  worker.on('message', (reply: WorkerReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(deserializeError(reply.error));
  });
  // The thread ending (closed, or crashed) fails every query waiting and every one after.
  const stop = (error: Error) => {
    failure ??= error;
    const waiting = [...pending.values()];
    pending.clear();
    for (const { reject } of waiting) reject(failure);
  };
  worker.on('error', stop);
  worker.on('exit', (code) =>
    stop(new Error(`The embedded database stopped (thread exit code ${code})`)),
  );

  function call(request: Request): Promise<unknown> {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }

  async function query<T>(
    sql: string,
    params: unknown[] = [],
    options: QueryOptions = {},
    tx?: number,
  ) {
    const parsers = options.parsers ?? {};
    const textTypes = Object.keys(parsers).map(Number);
    const rowMode = options.rowMode ?? 'object';
    const result = (await call({
      op: 'query',
      sql,
      params,
      rowMode,
      textTypes,
      tx,
      name: tx === undefined ? names.get(sql) : undefined,
    })) as QueryResult & { rows: T[] };
    if (textTypes.length > 0) applyParsers(result, parsers, rowMode);
    return result;
  }

  return {
    ready,
    query: (sql, params, options) => query(sql, params, options),
    async transaction(callback) {
      const tx = (await call({ op: 'begin' })) as number;
      let result;
      try {
        result = await callback({
          query: (sql, params, options) => query(sql, params, options, tx),
        });
      } catch (error) {
        await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    exec: async <T>(sql: string) =>
      (await call({ op: 'exec', sql })) as QueryResult & { rows: T[] },
    dumpDataDir: async () => new Blob([(await call({ op: 'dump' })) as Uint8Array]),
    nameStatement(sql, name) {
      names.set(sql, name);
    },
    async close() {
      if (failure) return;
      await call({ op: 'close' }).catch(() => {});
      await worker.terminate();
    },
  };
}

/** Drizzle passes the client per-type parsers (functions, which cannot cross threads): run them here. */
function applyParsers(result: QueryResult, parsers: ParserOptions, rowMode: RowMode): void {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    const key = rowMode === 'array' ? index : field.name;
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const value = row[key];
      if (typeof value === 'string') row[key] = parse(value);
    }
  });
}

function deserializeError(serialized: SerializedError): Error {
  const { message, name, ...fields } = serialized;
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  return error;
}

/** Drizzle's PGlite driver takes this client in place of a PGlite instance. */
export const asPglite = (client: PgliteThreadClient) => client as unknown as PGlite;
