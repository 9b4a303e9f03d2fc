/**
 * A message handed to the next page through navigation state, e.g. registration → / → /login
 * (spec §2). Read defensively: history state survives reloads and can hold anything.
 */
export interface NavigationMessage {
  message: string;
}

export function readNavigationMessage(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('message' in state)) return null;
  return typeof state.message === 'string' && state.message ? state.message : null;
}
