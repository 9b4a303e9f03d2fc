import { z } from 'zod';
import { myAgentSchema } from './my-agents.schemas';

/**
 * The documents an account gives its own agents (a price table, a policy, a manual): the text is
 * read from the file on the server, split into passages, and the agent answers from them, naming
 * the document. The file itself is not kept.
 */

/** The form's one file part. */
export const MY_AGENT_DOCUMENT_FIELD = 'file';

/** The kinds of file a document may be, by extension (its bytes must agree: see the server). */
export const MY_AGENT_DOCUMENT_EXTENSIONS = ['pdf', 'docx', 'txt', 'md'] as const;

/** What the file picker offers: the `accept` of an `<input type="file">`. */
export const MY_AGENT_DOCUMENT_ACCEPT = MY_AGENT_DOCUMENT_EXTENSIONS.map((e) => `.${e}`).join(',');

/** The longest name a document keeps, in characters (its extension kept past the cut). */
export const MY_AGENT_DOCUMENT_NAME_MAX = 200;

/** A document of an agent, as its owner reads it. */
export const myAgentDocumentSchema = z.object({
  id: z.string(),
  /** The file's name as sent, cleaned: no folders, no control characters, at most NAME_MAX. */
  filename: z.string(),
  /** Pages of a PDF; null for the kinds that have none (DOCX, TXT, MD). */
  pages: z.number().int().nullable(),
  /** Characters of text read from it. */
  characters: z.number().int(),
  createdAt: z.string(),
});
export type MyAgentDocument = z.infer<typeof myAgentDocumentSchema>;

/** An agent's documents, newest first. */
export const myAgentDocumentsResponseSchema = z.array(myAgentDocumentSchema);
export type MyAgentDocumentsResponse = z.infer<typeof myAgentDocumentsResponseSchema>;

/** An own agent in the account's data export: what it was taught, and the documents it was given. */
export const myAgentExportSchema = myAgentSchema.extend({
  documents: z.array(myAgentDocumentSchema.omit({ id: true })),
});
export type MyAgentExport = z.infer<typeof myAgentExportSchema>;
