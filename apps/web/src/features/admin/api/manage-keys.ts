/**
 * The query keys of the panel's Agent Management, Users, AI and audit parts, in one place so
 * that every change invalidates what it affects. Everything lives under `['admin']`.
 */
export const manageKeys = {
  agents: ['admin', 'agents'] as const,
  users: ['admin', 'users'] as const,
  usersPage: (page: { search: string; limit: number; offset: number }) =>
    ['admin', 'users', page] as const,
  audit: ['admin', 'audit'] as const,
  ai: ['admin', 'ai'] as const,
};
