/**
 * The query keys of the account's own agents, in one place so that every change refreshes what
 * it affects: the list under `['my-agents']`, each agent under its id.
 */
export const myAgentKeys = {
  all: ['my-agents'] as const,
  one: (id: string) => ['my-agents', 'one', id] as const,
};

/** `/my-agents/{id}`, the id encoded: it comes from the address bar. */
export const myAgentPath = (id: string) => `/my-agents/${encodeURIComponent(id)}`;
