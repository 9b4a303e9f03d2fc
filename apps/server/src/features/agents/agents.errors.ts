import { AppError, defineError } from '@/lib/errors';

/** No such agent, or a deleted one. */
export const agentNotFound = defineError(404, 'agents.notFound');

/** An agent an admin turned off: out of every list, and it answers nobody. */
export const agentInactive = defineError(400, 'agents.inactive');

/** An admin-only agent, asked for by someone not in admin mode. */
export const agentAdminOnly = defineError(403, 'agents.adminOnly');

/** An account made for one agent hires no other. */
export const singleAgentAccount = defineError(403, 'agents.singleAgent');

/** An agent the caller has not hired, or may not see in their mode. */
export const agentNoAccess = defineError(403, 'agents.noAccess');

/** A knowledge entry's link that is no page of the app, on the entry's own field. */
export const knowledgeLinkInvalid = (field: string) =>
  new AppError(400, 'validation.knowledgeLinkInvalid', { field });

export const agentNameTaken = defineError(400, 'validation.agentNameTaken', { field: 'name' });

/** The default agent (every account has it, and `/` leads to it) stays active. */
export const defaultAgentAlwaysActive = defineError(400, 'agents.defaultAlwaysActive', {
  field: 'isActive',
});

/** The seeded agents can only be deactivated. */
export const seededAgentNotDeletable = defineError(400, 'agents.seededNotDeletable');

/** An account has as many agents of its own as it may (MY_AGENTS_MAX). */
export const myAgentLimit = defineError(400, 'myAgents.limit');

// ---- An own agent's documents (my-agent-documents.ts) ----

/** The account has as many documents as it may (MY_AGENT_DOCUMENTS_MAX), named in the message. */
export const myAgentDocumentLimit = (max: number) =>
  new AppError(400, 'myAgents.documentLimit', { params: { max } });

/** No file in the form (or an empty file input). */
export const myAgentDocumentRequired = defineError(400, 'myAgents.documentRequired', {
  field: 'file',
});

/** Not a PDF, DOCX, TXT or MD by its bytes, or bytes that are not what its name says. */
export const myAgentDocumentType = defineError(400, 'myAgents.documentType', { field: 'file' });

/** A PDF that needs a password to be read. */
export const myAgentDocumentEncrypted = defineError(400, 'myAgents.documentEncrypted', {
  field: 'file',
});

/** A PDF with pages but no text on them: a scan. */
export const myAgentDocumentNoText = defineError(400, 'myAgents.documentNoText', {
  field: 'file',
});

export const myAgentDocumentEmpty = defineError(400, 'myAgents.documentEmpty', { field: 'file' });

/** A file of the right kind that its library could not read to the end. */
export const myAgentDocumentDamaged = defineError(400, 'myAgents.documentDamaged', {
  field: 'file',
});

/** A file whose reading took longer than its bound (DOCUMENT_READ_TIMEOUT_MS): stopped unread. */
export const myAgentDocumentTimeout = defineError(400, 'myAgents.documentTimeout', {
  field: 'file',
});

/** No such document of this agent of the caller's. */
export const myAgentDocumentNotFound = defineError(404, 'myAgents.documentNotFound');
