import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_SECONDS,
  OTP_TTL_MINUTES,
  type OtpPurpose,
} from '@contrateia/shared';
import type { AuthDeps } from './auth.deps';
import {
  otpAttemptsExhausted,
  otpCooldown,
  otpExpired,
  otpInvalid,
  otpMissing,
} from './auth.errors';
import * as repo from './auth.repository';

/** The e-mail codes registration and password reset share: same lifetime, tries, cooldown and daily number. */
export type CodeDeps = Pick<AuthDeps, 'db' | 'clock' | 'codes' | 'codeKey'>;

/**
 * Stores a new code for (address, purpose) and returns it, or throws a 429: the address had its
 * codes for the day, or the resend cooldown.
 */
export async function storeNewCode(
  { db, clock, codes, codeKey }: CodeDeps,
  { address, purpose }: { address: string; purpose: OtpPurpose },
): Promise<string> {
  // Counted first, so that no request replaces the current code once the day's are spent.
  await codes.take({ address, purpose });
  const now = clock.now();
  const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
  const stored = await repo.upsertEmailCode({
    db,
    email: address,
    purpose,
    codeHash: hashCode(codeKey, { address, purpose, code }),
    now,
    expiresAt: new Date(now.getTime() + OTP_TTL_MINUTES * 60_000),
    cooldownStart: new Date(now.getTime() - OTP_RESEND_SECONDS * 1000),
  });
  if (!stored) {
    await codes.giveBack({ address, purpose });
    const current = await repo.findEmailCode({ db, email: address, purpose });
    const readyAt = (current?.createdAt.getTime() ?? now.getTime()) + OTP_RESEND_SECONDS * 1000;
    throw otpCooldown(readyAt - now.getTime());
  }
  return code;
}

/** Counts one try of `otp` against the live code; throws the code's 400 unless it matches. */
export async function checkCode(
  { db, clock, codeKey }: Omit<CodeDeps, 'codes'>,
  { address, purpose, otp }: { address: string; purpose: OtpPurpose; otp: string },
) {
  const now = clock.now();
  const current = await repo.findEmailCode({ db, email: address, purpose });
  if (!current || current.consumedAt) throw otpMissing();
  if (current.expiresAt.getTime() <= now.getTime()) throw otpExpired();
  const claimed = await repo.claimEmailCodeAttempt({
    db,
    id: current.id,
    maxAttempts: OTP_MAX_ATTEMPTS,
  });
  if (!claimed) throw otpAttemptsExhausted();
  if (!sameHash(claimed.codeHash, hashCode(codeKey, { address, purpose, code: otp }))) {
    throw claimed.attempts >= OTP_MAX_ATTEMPTS ? otpAttemptsExhausted() : otpInvalid();
  }
  return claimed;
}

function hashCode(
  codeKey: string,
  { address, purpose, code }: { address: string; purpose: OtpPurpose; code: string },
): string {
  return createHmac('sha256', codeKey).update(`${purpose}:${address}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
