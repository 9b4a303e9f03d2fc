import type { User } from '@contrateia/shared';
import { readStorage, removeStorage, writeStorage } from '@/lib/storage';

// Storage keys fixed by the specification (§3).
const TOKEN_KEY = 'token';
const USER_KEY = 'user';

export function getToken(): string | null {
  return readStorage(TOKEN_KEY);
}

export function saveSession({ token, user }: { token: string; user: User }): void {
  writeStorage(TOKEN_KEY, token);
  saveUser(user);
}

export function saveUser(user: User): void {
  writeStorage(USER_KEY, JSON.stringify(user));
}

export function clearSession(): void {
  removeStorage(TOKEN_KEY);
  removeStorage(USER_KEY);
}
