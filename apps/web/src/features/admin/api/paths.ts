/** `/admin/agents/{id}`, the id encoded: it comes from the server, but a path is no place to trust it. */
export const agentPath = (id: string) => `/admin/agents/${encodeURIComponent(id)}`;

/** `/admin/users/{id}`. */
export const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;
