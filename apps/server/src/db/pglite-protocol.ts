// Messages between the server and the embedded database's thread (src/pglite-worker.mjs).

export type WorkerData = {
  /** A directory, or 'memory://'. */
  dataDir: string;
  /** A data-directory dump to start a new database from (tests). */
  loadDataDir?: Uint8Array;
  /** The build's migrated empty database, for a new directory. */
  templateFile?: string;
};

export type WorkerRequest =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** Types whose values are returned as text, for the caller's own parsers. */
      textTypes: number[];
      /** The transaction this query belongs to (the id of its `begin`). */
      tx?: number;
      /**
       * A statement the thread prepares once and then only runs (db/prepared.ts's), when outside
       * a transaction; its name is unique among the app's statements.
       */
      name?: string;
    }
  | {
      id: number;
      /** SQL of one or more statements, without parameters (PostgreSQL's simple query protocol). */
      op: 'exec';
      sql: string;
    }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

/** PostgreSQL's error fields (code, detail, constraint…) travel with the message. */
export type SerializedError = { message: string; name: string; [field: string]: unknown };

/** Id 0 answers the start: 'ready', or why the database could not open. */
export type WorkerReply =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError };

export type QueryResult = {
  rows: unknown[];
  affectedRows?: number;
  fields: { name: string; dataTypeID: number }[];
};
