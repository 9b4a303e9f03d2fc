import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import {
  sendWhatsAppMediaFieldsSchema,
  sliceWhole,
  toWellFormedText,
  WHATSAPP_MEDIA_FORM,
  WHATSAPP_MEDIA_NAME_MAX_LENGTH,
} from '@contrateia/shared';
import { AppError, invalidCharacters, isValidationKey } from '@/lib/errors';
import {
  mediaFieldInvalid,
  mediaFileRequired,
  mediaFileTooLarge,
  mediaFormInvalid,
  mediaFormTooLarge,
} from './whatsapp.errors';
import type { ReceivedMedia } from './whatsapp.send';

/**
 * Bounds on everything but the file: a file and its caption. A caption of 4096 characters of any
 * script is under 16 KB; a longer value is cut at `fieldSize`, and then refused as too long.
 */
export const MEDIA_FORM_LIMITS = {
  files: 1,
  fields: 4,
  parts: 6,
  fieldSize: 64 * 1024,
  fieldNameSize: 64,
  headerPairs: 16,
};

/** What a form may add to its file's size: its boundaries, part headers and caption. */
const FORM_OVERHEAD_BYTES = 128 * 1024;

/** @fastify/multipart's and busboy's refusals of a form with too much in it. */
const TOO_MUCH = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * Reads the owner's file form: the `file` part streamed into `target` (never held in memory here,
 * and reading stops the moment it passes `maxBytes`: a 413), its caption checked with the shared
 * schema. A body announced as larger than any allowed form is refused before a byte of it is
 * read. Every malformed or oversized form is a 4xx; the caller removes `target` whatever happens.
 */
export async function receiveMediaForm(
  request: FastifyRequest,
  { target, maxBytes }: { target: string; maxBytes: number },
): Promise<ReceivedMedia> {
  if (!request.isMultipart()) throw mediaFileRequired();
  if (Number(request.headers['content-length']) > maxBytes + FORM_OVERHEAD_BYTES)
    throw mediaFileTooLarge(maxBytes);
  const fields: Record<string, string> = {};
  let file: { name: string; type: string; bytes: number } | undefined;
  try {
    for await (const part of request.parts({
      limits: { ...MEDIA_FORM_LIMITS, fileSize: maxBytes },
    })) {
      if (part.type === 'field') {
        if (Object.hasOwn(fields, part.fieldname) || part.fieldnameTruncated)
          throw mediaFormInvalid();
        const value = String(part.value);
        // PostgreSQL's text cannot hold it, and no caption has one.
        if (value.includes('\0') || part.fieldname.includes('\0')) throw invalidCharacters();
        // Cut at the form's bound: longer than any caption may be.
        if (part.valueTruncated && part.fieldname === WHATSAPP_MEDIA_FORM.caption)
          throw mediaFieldInvalid({
            key: 'validation.whatsappMessageTooLong',
            field: WHATSAPP_MEDIA_FORM.caption,
          });
        fields[part.fieldname] = value;
        continue;
      }
      // An empty file input (a browser sends one with no name) or another file part: read past.
      if (part.fieldname !== WHATSAPP_MEDIA_FORM.file || !part.filename || file) {
        part.file.resume();
        continue;
      }
      // Stopped at the limit: busboy would otherwise read the rest of the part to discard it.
      const stop = new AbortController();
      part.file.once('limit', () => stop.abort(mediaFileTooLarge(maxBytes)));
      try {
        await pipeline(part.file, createWriteStream(target, { flags: 'wx' }), {
          signal: stop.signal,
        });
      } catch (error) {
        throw stop.signal.aborted ? stop.signal.reason : error;
      }
      if (part.file.truncated) throw mediaFileTooLarge(maxBytes);
      file = { name: part.filename, type: part.mimetype, bytes: part.file.bytesRead };
    }
  } catch (error) {
    throw asClientError(error, maxBytes);
  }
  if (!file || file.bytes === 0) throw mediaFileRequired();
  const parsed = sendWhatsAppMediaFieldsSchema.safeParse({
    caption: fields[WHATSAPP_MEDIA_FORM.caption],
  });
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const key = issue && isValidationKey(issue.message) ? issue.message : 'validation.invalidValue';
    throw mediaFieldInvalid({ key, field: WHATSAPP_MEDIA_FORM.caption });
  }
  return {
    fileName: fileNameOf(file.name),
    declaredType: file.type.split(';')[0]!.trim().toLowerCase(),
    caption: parsed.data.caption ?? '',
  };
}

/**
 * The name a document reaches the contact with: the browser's, without a folder, control
 * characters or half a surrogate pair, at most WHATSAPP_MEDIA_NAME_MAX_LENGTH characters (its
 * extension kept: the contact's phone opens it by that).
 */
function fileNameOf(given: string): string {
  const name = toWellFormedText(given)
    .split(/[/\\]/)
    .at(-1)!
    .replace(/\p{Cc}/gu, '')
    .trim();
  if (!name) return 'file';
  if (name.length <= WHATSAPP_MEDIA_NAME_MAX_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  return sliceWhole(name, WHATSAPP_MEDIA_NAME_MAX_LENGTH - extension.length) + extension;
}

/**
 * What the reading of the form threw, as the client is told: limits and malformed bodies are
 * the client's (4xx); a failure to write the file (a full disk) stays the server's (5xx).
 */
function asClientError(error: unknown, maxBytes: number): unknown {
  if (error instanceof AppError) return error;
  const { code, syscall } = error as { code?: string; syscall?: string };
  if (syscall) return error;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return mediaFileTooLarge(maxBytes);
  if (code && TOO_MUCH.has(code)) return mediaFormTooLarge({ cause: error });
  return mediaFormInvalid({ cause: error });
}
