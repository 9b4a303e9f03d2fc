import type { User } from '@contrateia/shared';
import { readStorage, removeStorage, writeStorage } from '@/lib/storage';

// Storage keys, fixed: renaming one would sign everyone out on the next release.
const TOKEN_KEY = 'token';
const USER_KEY = 'user';

export function getToken(): string | null {
  return readStorage(TOKEN_KEY);
}

export function saveSession({ token, user }: { token: string; user: User }): void {
  writeStorage(TOKEN_KEY, token);
  saveUser(user);
  notifyTokenChange();
}

/**
 * The user stored at the last sign-in or check: what the page can show while the server cannot
 * confirm it (in maintenance, say). The server decides access whatever it says.
 */
export function readStoredUser(): User | null {
  try {
    const user = JSON.parse(readStorage(USER_KEY) ?? 'null') as Partial<User> | null;
    return typeof user?.id === 'string' && typeof user.name === 'string' ? (user as User) : null;
  } catch {
    return null;
  }
}

export function saveUser(user: User): void {
  writeStorage(USER_KEY, JSON.stringify(user));
}

export function clearSession(): void {
  removeStorage(TOKEN_KEY);
  removeStorage(USER_KEY);
  notifyTokenChange();
}

const tokenListeners = new Set<() => void>();

function notifyTokenChange(): void {
  for (const listener of tokenListeners) listener();
}

/**
 * Calls `listener` whenever the stored token may have changed: a sign-in, a role switch, a
 * sign-out, here or in another tab. Whatever holds the token beyond one request (the realtime
 * connection) reads it again. Returns the unsubscribe function.
 */
export function onTokenChange(listener: () => void): () => void {
  tokenListeners.add(listener);
  // Another tab's change reaches this one as a storage event (null key: storage cleared).
  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_KEY || event.key === null) listener();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    tokenListeners.delete(listener);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}
