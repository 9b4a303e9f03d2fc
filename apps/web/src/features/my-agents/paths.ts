/** The pages of the account's own agents: the list, a new agent's form, a saved one's. */
export const MY_AGENTS_PATH = '/my-agents';
export const NEW_MY_AGENT_PATH = '/my-agents/new';
export const myAgentPagePath = (id: string) => `/my-agents/${encodeURIComponent(id)}`;
