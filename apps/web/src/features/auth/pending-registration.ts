import { OTP_RESEND_SECONDS, OTP_TTL_MINUTES } from '@contrateia/shared';
import { ApiError } from '@/lib/api-client';

/**
 * A registration waiting for its mailed code, kept in the tab's session storage so that a reload
 * (or coming back to /register in the same tab) returns to the code step for that address while the
 * code lives.
 *
 * The password is never kept: storage is readable by any script that runs on the page and stays
 * on disk with the browser's session, and a password at rest there would outlive the page that
 * needed it. After a reload the code step asks for it again; the name and address alone are
 * little to keep, and only for the code's lifetime.
 */
export interface PendingRegistration {
  name: string;
  email: string;
  /** When the last code was sent (ms since the epoch): the resend cooldown and lifetime run from it. */
  sentAt: number;
}

const KEY = 'pendingRegistration';

/** The pending registration, unless there is none or its code has expired (then forgotten). */
export function readPendingRegistration(): PendingRegistration | null {
  let stored: unknown;
  try {
    stored = JSON.parse(window.sessionStorage.getItem(KEY) ?? 'null');
  } catch {
    stored = null;
  }
  const pending = isPending(stored) ? stored : null;
  if (!pending || pending.sentAt + OTP_TTL_MINUTES * 60_000 <= Date.now()) {
    clearPendingRegistration();
    return null;
  }
  return pending;
}

export function savePendingRegistration({ name, email, sentAt }: PendingRegistration): void {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify({ name, email, sentAt }));
  } catch {
    // Storage refused (private mode, full): the flow still works until a reload.
  }
}

export function clearPendingRegistration(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

// Read defensively: anything on the page's origin could have written this entry.
function isPending(value: unknown): value is PendingRegistration {
  if (typeof value !== 'object' || value === null) return false;
  const { name, email, sentAt } = value as Record<string, unknown>;
  return typeof name === 'string' && typeof email === 'string' && typeof sentAt === 'number';
}

/**
 * A send refused within the server's resend cooldown (429 with Retry-After): the server's "wait N
 * seconds", those seconds, and when the code it waits on was sent. Null for any other failure.
 */
export function cooldownOf(
  error: unknown,
): { message: string; seconds: number; sentAt: number } | null {
  if (!(error instanceof ApiError) || error.status !== 429 || !error.retryAfterSeconds) return null;
  const seconds = Math.min(error.retryAfterSeconds, OTP_RESEND_SECONDS);
  return {
    message: error.message,
    seconds,
    sentAt: Date.now() - (OTP_RESEND_SECONDS - seconds) * 1000,
  };
}
