import { defineError } from '@/lib/errors';

/**
 * No conversation of the caller's by that id: another user's, another agent's, a malformed id or
 * an admin's test conversation that is unknown or expired all get this same 404, so an id says
 * nothing of whose it is.
 */
export const conversationNotFound = defineError(404, 'chat.conversationNotFound');

/** A reply is being produced in the conversation already: one at a time, on every instance. */
export const conversationBusy = defineError(409, 'chat.busy');

/**
 * The engine gave no reply (it failed, or gave nothing): nothing is stored. The cause, which may
 * quote the provider, goes to the log only.
 */
export const providerFailed = defineError(502, 'chat.providerFailed');
