// src/pglite-worker.mjs
import fs from "node:fs";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { ERRNO_CODES } from "@electric-sql/pglite/basefs";
var port = (
  /** @type {import('node:worker_threads').MessagePort} */
  parentPort
);
var options = (
  /** @type {WorkerData} */
  workerData
);
var ERRNO_NAMES = new Map(Object.entries(ERRNO_CODES).map(([name, errno]) => [errno, name]));
var transactions = /* @__PURE__ */ new Map();
function serializeError(error) {
  if (error && typeof error === "object" && "errno" in error && typeof error.errno === "number") {
    const code = ERRNO_NAMES.get(error.errno) ?? `errno ${error.errno}`;
    return { message: `file system error ${code}`, name: "ErrnoError", code };
  }
  if (!(error instanceof Error)) return { message: String(error), name: "Error" };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  }
  return { ...fields, message: error.message, name: error.name };
}
function initialDataDir() {
  if (options.loadDataDir) return new Blob([options.loadDataDir]);
  const { dataDir, templateFile } = options;
  const isNew = dataDir !== "memory://" && !fs.existsSync(path.join(dataDir, "PG_VERSION"));
  if (!isNew || !templateFile || !fs.existsSync(templateFile)) return void 0;
  return new Blob([fs.readFileSync(templateFile)]);
}
function begin(db, id) {
  return new Promise((resolve, reject) => {
    let finish = () => {
    };
    const decided = new Promise((r) => finish = r);
    const done = db.transaction(async (tx) => {
      transactions.set(id, { tx, finish, done });
      resolve();
      if (!await decided) await tx.rollback();
    });
    done.catch(reject);
  });
}
var parserSets = /* @__PURE__ */ new Map();
function textParsers(types) {
  const key = types.join(",");
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, (value) => value]));
    parserSets.set(key, parsers);
  }
  return parsers;
}
async function handle(db, request) {
  switch (request.op) {
    case "query": {
      const target = request.tx === void 0 ? db : transactions.get(request.tx)?.tx;
      if (!target) throw new Error("The transaction has ended");
      const result = await target.query(request.sql, request.params, { rowMode: request.rowMode, parsers: textParsers(request.textTypes) });
      return {
        rows: result.rows,
        affectedRows: result.affectedRows,
        fields: result.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }))
      };
    }
    case "begin":
      await begin(db, request.id);
      return request.id;
    case "end": {
      const open = transactions.get(request.tx);
      if (!open) throw new Error("The transaction has ended");
      transactions.delete(request.tx);
      open.finish(request.commit);
      await open.done;
      return void 0;
    }
    case "dump": {
      const dump = await db.dumpDataDir("none");
      return new Uint8Array(await dump.arrayBuffer());
    }
    case "close":
      await db.close();
      return void 0;
  }
}
var SHARED_BUFFERS = "32MB";
try {
  const db = new PGlite(options.dataDir, {
    loadDataDir: initialDataDir(),
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`]
  });
  await db.waitReady;
  port.on("message", (request) => {
    handle(db, request).then(
      (result) => {
        const reply = { id: request.id, ok: true, result };
        port.postMessage(reply, result instanceof Uint8Array ? [
          /** @type {ArrayBuffer} */
          result.buffer
        ] : []);
      },
      (error) => {
        const reply = { id: request.id, ok: false, error: serializeError(error) };
        port.postMessage(reply);
      }
    );
  });
  const ready = { id: 0, ok: true, result: "ready" };
  port.postMessage(ready);
} catch (error) {
  const failed = { id: 0, ok: false, error: serializeError(error) };
  port.postMessage(failed);
}
//# sourceMappingURL=pglite-worker.js.map
