import { OTP_TTL_MINUTES, type Language, type ResetPasswordInput } from '@contrateia/shared';
import { hashPassword } from '@/lib/password';
import { checkCode, storeNewCode, type CodeDeps } from './auth.codes';
import type { AuthDeps } from './auth.deps';
import { accountDisabled, otpInvalid, otpMissing } from './auth.errors';
import * as repo from './auth.repository';

/**
 * Mails a password-reset code when the address has an account. The answer, the timing and the
 * resend cooldown are the same either way (a code row is kept for unknown addresses too, and the
 * mail goes out after the answer), so the endpoint does not tell who has an account.
 */
export async function requestPasswordReset(
  deps: CodeDeps & Pick<AuthDeps, 'mailer' | 'translate' | 'logger'>,
  { email: address, language }: { email: string; language: Language },
): Promise<void> {
  const { db, codes, mailer, translate, logger } = deps;
  const user = await repo.findUserByEmail({ db, email: address });
  const code = await storeNewCode(deps, { address, purpose: 'password-reset' });
  if (!user) return;
  const t = translate(user.language ?? language);
  void mailer
    .send({
      to: user.email,
      subject: t('mail.resetSubject', { code }),
      text: t('mail.resetText', { code, minutes: OTP_TTL_MINUTES }),
    })
    .catch(async (error: unknown) => {
      // Never sent: lift the cooldown so the person can ask again at once.
      logger.error({ err: error }, 'password-reset mail failed');
      await repo.expireEmailCode({ db, email: address, purpose: 'password-reset' }).catch(() => {});
      await codes.giveBack({ address, purpose: 'password-reset' }).catch(() => {});
    });
}

/**
 * Sets the new password once the mailed code matches; every session of the account ends, and the
 * sign-in throttle takes the reset as a sign-in from `ip`.
 */
export async function resetPassword(
  deps: Omit<CodeDeps, 'codes'> & Pick<AuthDeps, 'sessions' | 'throttle'>,
  {
    email: address,
    otp,
    password,
    ip,
  }: Pick<ResetPasswordInput, 'email' | 'otp' | 'password'> & { ip: string },
): Promise<void> {
  const { db, clock, sessions, throttle } = deps;
  const claimed = await checkCode(deps, { address, purpose: 'password-reset', otp });
  const passwordHash = await hashPassword(password);
  const reset = await db.transaction(async (tx) => {
    if (!(await repo.consumeEmailCode({ db: tx, id: claimed.id, now: clock.now() }))) {
      throw otpMissing();
    }
    const user = await repo.findUserByEmail({ db: tx, email: address });
    // A matching code for an address without an account cannot happen (none was ever mailed).
    if (!user) throw otpInvalid();
    // A deactivated account gets no new password: nothing of it opens again until an admin says so.
    if (!user.isActive) throw accountDisabled();
    await repo.updateUserPassword({ db: tx, id: user.id, passwordHash, now: clock.now() });
    return { userId: user.id, revoked: await sessions.revokeAllOf({ userId: user.id, tx }) };
  });
  await sessions.forget(reset.revoked);
  await throttle.recordSuccess({ userId: reset.userId, ip });
}
