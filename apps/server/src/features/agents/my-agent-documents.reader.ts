import { Worker } from 'node:worker_threads';
import { fileTypeFromBuffer } from 'file-type';
import { DOCUMENTS_WORKER } from '@/paths';
import type { DocumentPassage } from './agents.table';
import {
  myAgentDocumentDamaged,
  myAgentDocumentEmpty,
  myAgentDocumentEncrypted,
  myAgentDocumentNoText,
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
  /** The document's text in passages; a refusal (400) when it has none to give. */
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
 * Reads documents' text on a thread of its own (my-agent-documents.worker.mjs), started at the
 * first document and kept for the next: parsing a PDF of 200 pages is seconds of work that would
 * otherwise hold up every request meanwhile. A thread that dies (out of its heap) fails the
 * documents it was reading, and the next one starts another.
 */
export function createDocumentReader(): DocumentReader {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (document: ReadDocument) => void; reject: (error: Error) => void }
  >();

  function failAll(error: Error) {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = undefined;
  }

  function started(): Worker {
    if (worker) return worker;
    const thread = new Worker(DOCUMENTS_WORKER, {
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB },
    });
    // Nothing to wait for at exit: an upload in flight ends with its process.
    thread.unref();
    thread.on('message', (reply: ReaderReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if ('failure' in reply) waiting.reject(REFUSALS[reply.failure]());
      else waiting.resolve(reply.document);
    });
    thread.on('error', (error) => failAll(myAgentDocumentDamaged({ cause: error })));
    thread.on('exit', () => failAll(myAgentDocumentDamaged()));
    worker = thread;
    return thread;
  }

  return {
    read({ kind, bytes }) {
      const thread = started();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // A copy of its own is moved to the thread: the caller's bytes stay the caller's.
        const copy = bytes.slice();
        thread.postMessage({ id, kind, bytes: copy } satisfies ReaderRequest, [copy.buffer]);
      });
    },
    async close() {
      const thread = worker;
      worker = undefined;
      failAll(new Error('the documents reader is closed'));
      await thread?.terminate();
    },
  };
}
