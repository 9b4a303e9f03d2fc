import { buffer } from 'node:stream/consumers';
import { MY_AGENT_DOCUMENT_FIELD } from '@contrateia/shared';
import type { FastifyRequest } from 'fastify';
import {
  imageTooLarge,
  uploadFormInvalid,
  uploadFormTooLarge,
} from '@/features/images/images.errors';
import { AppError } from '@/lib/errors';
import type { DocumentUploadLimit, ReceivedDocument } from './my-agent-documents';
import { myAgentDocumentRequired } from './agents.errors';

/** Bounds on everything but the file: the form is one file and nothing else of use. */
export const DOCUMENT_FORM_LIMITS = {
  files: 1,
  fields: 4,
  parts: 6,
  fieldSize: 1024,
  fieldNameSize: 64,
  headerPairs: 16,
};

/** What a form may add to its file's size: its boundary and part headers. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** @fastify/multipart's and busboy's refusals of a form with too much in it. */
const TOO_MUCH = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * Reads a document upload's multipart body: its `file` part into memory (it is parsed whole
 * anyway), reading stopped the moment it passes the admin's limit (a 413 in the images' words,
 * which speak of "the file"); a body announced as larger is refused before a byte is read. Other
 * parts are read past. Every malformed or oversized form is a 4xx.
 */
export async function receiveDocument(
  request: FastifyRequest,
  { maxBytes, maxFileSizeMb }: DocumentUploadLimit,
): Promise<ReceivedDocument> {
  if (!request.isMultipart()) throw myAgentDocumentRequired();
  if (Number(request.headers['content-length']) > maxBytes + FORM_OVERHEAD_BYTES)
    throw imageTooLarge(maxFileSizeMb);
  let received: ReceivedDocument | undefined;
  try {
    for await (const part of request.parts({
      limits: { ...DOCUMENT_FORM_LIMITS, fileSize: maxBytes },
    })) {
      if (part.type === 'field') continue;
      // An empty file input (a browser sends one with no name) or another file part: read past.
      if (part.fieldname !== MY_AGENT_DOCUMENT_FIELD || !part.filename) {
        part.file.resume();
        continue;
      }
      // Stopped at the limit: busboy would otherwise read the rest of the part to discard it (as
      // the part's toBuffer does), however much more the client sends.
      part.file.once('limit', () => part.file.destroy(imageTooLarge(maxFileSizeMb)));
      received = { filename: part.filename, bytes: new Uint8Array(await buffer(part.file)) };
    }
  } catch (error) {
    throw asClientError(error, maxFileSizeMb);
  }
  if (!received) throw myAgentDocumentRequired();
  return received;
}

/** What the reading of the form threw, as the client is told: every such failure is the client's. */
function asClientError(error: unknown, maxFileSizeMb: number): unknown {
  if (error instanceof AppError) return error;
  const { code } = error as { code?: string };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return imageTooLarge(maxFileSizeMb);
  if (code && TOO_MUCH.has(code)) return uploadFormTooLarge({ cause: error });
  return uploadFormInvalid({ cause: error });
}
