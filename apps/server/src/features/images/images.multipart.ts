import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '@/lib/errors';
import {
  imageTooLarge,
  invalidCharacters,
  uploadFormInvalid,
  uploadFormTooLarge,
} from './images.errors';

/** The form's one file part. */
export const IMAGE_FIELD = 'image';

/**
 * Bounds on everything but the file: a form of one file and four short fields has no use for
 * more. A value over FIELD_BYTES is cut, and then too long for its schema whatever it holds (4 KB
 * is more than 500 characters of any script).
 */
export const FORM_LIMITS = {
  files: 1,
  fields: 8,
  parts: 10,
  fieldSize: 4096,
  fieldNameSize: 64,
  headerPairs: 16,
};

/** What a form may add to its file's size: its boundaries, part headers and fields. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;

/** @fastify/multipart's and busboy's refusals, as the answer each gets. */
const MULTIPART_ERRORS: Record<string, typeof uploadFormTooLarge> = {
  FST_PARTS_LIMIT: uploadFormTooLarge,
  FST_FILES_LIMIT: uploadFormTooLarge,
  FST_FIELDS_LIMIT: uploadFormTooLarge,
};

export type ReceivedUpload = {
  /** The `image` part, once written to `target`; undefined when the form has none (or an empty one). */
  file?: { name: string; bytes: number };
  /** The other fields, by name, as sent. */
  fields: Record<string, string>;
};

/**
 * Reads an upload's multipart body: the `image` part streamed into `target` (the file is never
 * held in memory, and reading stops the moment it passes `maxBytes`: a 413), the text fields
 * collected. `checkName` sees the file's name before any of its bytes are read, and may refuse it.
 * The caller removes `target` whatever happens. Every malformed or oversized form is a 4xx.
 */
export async function receiveUpload(
  request: FastifyRequest,
  {
    target,
    maxBytes,
    maxFileSizeMb,
    checkName,
  }: {
    target: string;
    maxBytes: number;
    maxFileSizeMb: number;
    checkName: (name: string) => string;
  },
): Promise<ReceivedUpload> {
  const received: ReceivedUpload = { fields: {} };
  try {
    for await (const part of request.parts({ limits: { ...FORM_LIMITS, fileSize: maxBytes } })) {
      if (part.type === 'field') {
        const value = String(part.value);
        if (Object.hasOwn(received.fields, part.fieldname) || part.fieldnameTruncated)
          throw uploadFormInvalid();
        if (value.includes('\0') || part.fieldname.includes('\0')) throw invalidCharacters();
        received.fields[part.fieldname] = value;
        continue;
      }
      // A file part other than `image`, or an empty file input (a browser sends one with no
      // name): read past, and the form has no image.
      if (part.fieldname !== IMAGE_FIELD || !part.filename) {
        part.file.resume();
        continue;
      }
      const name = checkName(part.filename);
      // Stopped at the limit: busboy would otherwise read the rest of the part to discard it.
      const stop = new AbortController();
      part.file.once('limit', () => stop.abort(imageTooLarge(maxFileSizeMb)));
      try {
        await pipeline(part.file, createWriteStream(target, { flags: 'wx' }), {
          signal: stop.signal,
        });
      } catch (error) {
        throw stop.signal.aborted ? stop.signal.reason : error;
      }
      if (part.file.truncated) throw imageTooLarge(maxFileSizeMb);
      received.file = { name, bytes: part.file.bytesRead };
    }
  } catch (error) {
    throw asClientError(error, maxFileSizeMb);
  }
  if (received.file?.bytes === 0) received.file = undefined;
  return received;
}

/**
 * What the reading of the form threw, as the client is told: limits and malformed bodies are
 * the client's (4xx); a failure to write the file (a full disk) stays the server's (5xx).
 */
function asClientError(error: unknown, maxFileSizeMb: number): unknown {
  if (error instanceof AppError) return error;
  const { code, syscall } = error as { code?: string; syscall?: string };
  if (syscall) return error;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return imageTooLarge(maxFileSizeMb);
  const known = code ? MULTIPART_ERRORS[code] : undefined;
  if (known) return known({ cause: error });
  // busboy's own (a part cut short, no boundary, a bad part header), a field named like a
  // prototype property, a JSON field that does not parse, a client gone mid-upload.
  return uploadFormInvalid({ cause: error });
}
