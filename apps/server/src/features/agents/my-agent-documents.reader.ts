import { Worker } from 'node:worker_threads';
import { fileTypeFromBuffer } from 'file-type';
import { DOCUMENTS_WORKER } from '@/paths';
import type { DocumentPassage } from './agents.table';
import {
  myAgentDocumentDamaged,
  myAgentDocumentEmpty,
  myAgentDocumentEncrypted,
  myAgentDocumentNoText,
  myAgentDocumentTimeout,
  myAgentDocumentType,
} from './agents.errors';

/** What a document is read as: its real type, from its bytes (and, for text, its name). */
export type DocumentKind = 'pdf' | 'docx' | 'text' | 'markdown';

/** Why a document's text could not be had; each is its own message. */
export type ReadFailure = 'encrypted' | 'noText' | 'empty' | 'damaged';

/** A document's text, as the reading thread (my-agent-documents.worker.mjs) answers it. */
export type ReadDocument = {
  /** A PDF's pages; null for the kinds without pages. */
  pages: number | null;
  characters: number;
  passages: DocumentPassage[];
};

export type ReaderRequest = { id: number; kind: DocumentKind; bytes: Uint8Array };
export type ReaderReply =
  { id: number; document: ReadDocument } | { id: number; failure: ReadFailure };

export type DocumentReader = {
  /** The document's text in passages; a refusal (400) when it has none to give, or not in time. */
  read(input: { kind: DocumentKind; bytes: Uint8Array }): Promise<ReadDocument>;
  close(): Promise<void>;
};

const REFUSALS: Record<ReadFailure, () => Error> = {
  encrypted: myAgentDocumentEncrypted,
  noText: myAgentDocumentNoText,
  empty: myAgentDocumentEmpty,
  damaged: myAgentDocumentDamaged,
};

/**
 * The heap the reading thread may use: a hostile file that makes its library allocate without
 * bound ends that thread (and its one upload: a 400, "damaged"), never the server.
 */
const READER_HEAP_MB = 512;

/** The extension of a file name, lower-case, without its dot ('' when it has none). */
const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/**
 * What a document really is, from its bytes: a PDF or a DOCX by their signatures (and named so:
 * a PDF called `.docx` is refused rather than guessed), and TXT or MD, which have none, by their
 * name only when the bytes are UTF-8 text without NUL characters. Anything else is refused (400).
 */
export async function kindOf({
  filename,
  bytes,
}: {
  filename: string;
  bytes: Uint8Array;
}): Promise<DocumentKind> {
  const extension = extensionOf(filename);
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) {
    if (detected.ext === 'pdf' && extension === 'pdf') return 'pdf';
    if (detected.ext === 'docx' && extension === 'docx') return 'docx';
    throw myAgentDocumentType();
  }
  if (extension !== 'txt' && extension !== 'md') throw myAgentDocumentType();
  if (bytes.includes(0) || !isUtf8(bytes)) throw myAgentDocumentType();
  return extension === 'md' ? 'markdown' : 'text';
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * How long one document's reading may take, the thread's start included: a 200-page PDF takes
 * seconds, so a minute is far beyond any honest file, and it bounds a hostile one (a PDF or DOCX
 * made to keep its library busy without end) to a minute of the reading thread.
 */
export const DOCUMENT_READ_TIMEOUT_MS = 60_000;

/** A read waiting for its document's text, on the thread it was sent to. */
type Read = {
  kind: DocumentKind;
  bytes: Uint8Array;
  resolve: (document: ReadDocument) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

/** A reading thread and the reads it holds, by id. */
type Thread = { worker: Worker; reads: Map<number, Read> };

/**
 * Reads documents' text on a thread of its own (my-agent-documents.worker.mjs), started at the
 * first document and kept for the next: parsing a PDF of 200 pages is seconds of work that would
 * otherwise hold up every request meanwhile. A thread that dies (out of its heap) fails the
 * documents it was reading, and the next one starts another. A read past `timeoutMs` is refused
 * (400) and its thread ended, the one way to stop a library stuck in its work; the other reads it
 * held go on a new thread, each within what is left of its own time.
 */
export function createDocumentReader({
  timeoutMs = DOCUMENT_READ_TIMEOUT_MS,
}: { timeoutMs?: number } = {}): DocumentReader {
  let current: Thread | undefined;
  let nextId = 1;

  /** Takes the read `id` off `thread`, its timer stopped, if it still waits there. */
  function take(thread: Thread, id: number): Read | undefined {
    const read = thread.reads.get(id);
    if (!read) return undefined;
    thread.reads.delete(id);
    clearTimeout(read.timer);
    return read;
  }

  /** Refuses every read `thread` holds; the next read starts another thread. */
  function failAll(thread: Thread, error: Error) {
    if (current === thread) current = undefined;
    for (const id of [...thread.reads.keys()]) take(thread, id)?.reject(error);
  }

  function started(): Thread {
    if (current) return current;
    const worker = new Worker(DOCUMENTS_WORKER, {
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB },
    });
    // Nothing to wait for at exit: an upload in flight ends with its process.
    worker.unref();
    const thread: Thread = { worker, reads: new Map() };
    worker.on('message', (reply: ReaderReply) => {
      const read = take(thread, reply.id);
      if (!read) return;
      if ('failure' in reply) read.reject(REFUSALS[reply.failure]());
      else read.resolve(reply.document);
    });
    worker.on('error', (error) => failAll(thread, myAgentDocumentDamaged({ cause: error })));
    worker.on('exit', () => failAll(thread, myAgentDocumentDamaged()));
    current = thread;
    return thread;
  }

  /** Sends a read to the current thread (started if need be), under its id. */
  function send(id: number, read: Read) {
    const thread = started();
    thread.reads.set(id, read);
    // A copy of its own is moved to the thread: the caller's bytes stay the caller's (and can be
    // sent again should the thread be ended for another read).
    const copy = read.bytes.slice();
    thread.worker.postMessage({ id, kind: read.kind, bytes: copy } satisfies ReaderRequest, [
      copy.buffer,
    ]);
  }

  /**
   * The read `id` ran out of time: refused, and its thread ended, whatever it is stuck in. Every
   * waiting read is on the current thread (one that ends fails or hands on all it held).
   */
  function expired(id: number) {
    const thread = current;
    const read = thread && take(thread, id);
    if (!thread || !read) return;
    read.reject(myAgentDocumentTimeout());
    current = undefined;
    const others = [...thread.reads];
    thread.reads.clear();
    void thread.worker.terminate();
    for (const [otherId, other] of others) send(otherId, other);
  }

  return {
    read({ kind, bytes }) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => expired(id), timeoutMs);
        // Nothing to wait for at exit, as the thread itself.
        timer.unref();
        send(id, { kind, bytes, resolve, reject, timer });
      });
    },
    async close() {
      const thread = current;
      if (!thread) return;
      failAll(thread, new Error('the documents reader is closed'));
      await thread.worker.terminate();
    },
  };
}
