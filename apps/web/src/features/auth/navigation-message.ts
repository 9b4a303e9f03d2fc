/**
 * A message handed to the next page through navigation state, e.g. registration → / → /login, with
 * the new account's address for the sign-in form. Read defensively: history state survives reloads
 * and can hold anything.
 */
export interface NavigationMessage {
  message: string;
  email?: string;
}

export function readNavigationMessage(state: unknown): string | null {
  return readString(state, 'message');
}

/** The address a finished registration handed to the sign-in page, if any. */
export function readNavigationEmail(state: unknown): string | null {
  return readString(state, 'email');
}

function readString(state: unknown, key: keyof NavigationMessage): string | null {
  if (typeof state !== 'object' || state === null || !(key in state)) return null;
  const value = (state as Record<string, unknown>)[key];
  return typeof value === 'string' && value ? value : null;
}
