/**
 * The query keys of the account's own agents, in one place so that every change refreshes what
 * it affects: the list under `['my-agents']`, each agent under its id.
 */
export const myAgentKeys = {
  all: ['my-agents'] as const,
  one: (id: string) => ['my-agents', 'one', id] as const,
  /** An agent's documents: apart from the agent, which the form reads once and keeps. */
  documents: (id: string) => ['my-agents', 'documents', id] as const,
};

/** `/my-agents/{id}`, the id encoded: it comes from the address bar. */
export const myAgentPath = (id: string) => `/my-agents/${encodeURIComponent(id)}`;

/** `/my-agents/{id}/documents`: an agent's documents. */
export const myAgentDocumentsPath = (id: string) => `${myAgentPath(id)}/documents`;
