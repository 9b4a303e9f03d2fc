import type { ChatMessage } from '@contrateia/shared';

/** A chat message may be the agent's welcome or an error shown in its place. */
export type ChatEntryType = 'welcome' | 'error';

/**
 * A message as the chat shows it: the stored shape plus what only the page knows (its type, welcome
 * or error, a reply still streaming, and who wrote it when a transcript mixes agents).
 */
export type ChatEntry = ChatMessage & {
  type?: ChatEntryType;
  /** The reply is still arriving; with no text yet the typing indicator stands in for it. */
  streaming?: boolean;
  /** The agent's display name, for transcripts where replies come from different agents. */
  author?: string;
};

let counter = 0;

/**
 * Ids for messages not stored yet. Not crypto.randomUUID: it exists only in secure contexts,
 * and the app may be opened over plain HTTP on a local address.
 */
function localId(): string {
  counter += 1;
  return `local-${counter}`;
}

/** A message that has not been stored (or never will be): its timestamp is the browser's. */
export function localEntry(
  fields: Pick<ChatEntry, 'text' | 'sender'> & Partial<ChatEntry>,
): ChatEntry {
  return { id: localId(), timestamp: new Date().toISOString(), ...fields };
}
