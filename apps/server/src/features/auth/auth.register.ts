import {
  OTP_TTL_MINUTES,
  type CompleteRegistrationInput,
  type Language,
  type Role,
  type SendOtpInput,
  type User,
} from '@contrateia/shared';
import { mailUnavailable, underMaintenance } from '@/lib/errors';
import { hashPassword } from '@/lib/password';
import { insertAccount, isUniqueViolation, toUser } from './auth.account-rows';
import { checkCode, storeNewCode, type CodeDeps } from './auth.codes';
import type { AuthDeps } from './auth.deps';
import { emailTaken, otpMissing, otpRequired, registrationClosed } from './auth.errors';
import * as repo from './auth.repository';
import type { UserRow } from './auth.table';

type RegistrationSettings = Pick<AuthDeps, 'systemSettings'>;

/**
 * Mails a registration code, or, when the address has an account, a note to its owner on how
 * to sign in instead. The answer, the cooldown and the daily number are the same either way (a
 * code row is kept for the account's address too, never mailed), so the endpoint does not tell
 * who has an account. `email` is in its one written form (the shared schema made it so).
 */
export async function sendOtp(
  deps: CodeDeps & RegistrationSettings & Pick<AuthDeps, 'mailer' | 'translate' | 'publicUrl'>,
  { email, purpose, language }: SendOtpInput & { language: Language },
): Promise<{ email: string }> {
  const { db, codes, mailer, translate, publicUrl } = deps;
  if (purpose === 'registration') await registrationOpen(deps);
  const owner = await repo.findUserByEmail({ db, email });
  const code = await storeNewCode(deps, { address: email, purpose });
  const t = translate(owner?.language ?? language);
  const mail = owner
    ? {
        subject: t('mail.registerAttemptSubject'),
        text: t('mail.registerAttemptText', {
          loginUrl: `${publicUrl}/login`,
          resetUrl: `${publicUrl}/forgot-password`,
        }),
      }
    : {
        subject: t('mail.otpSubject', { code }),
        text: t('mail.otpText', { code, minutes: OTP_TTL_MINUTES }),
      };
  try {
    await mailer.send({ to: email, ...mail });
  } catch (error) {
    // The person never got this mail: drop the code so they can ask again at once.
    await repo.expireEmailCode({ db, email, purpose });
    await codes.giveBack({ address: email, purpose });
    throw mailUnavailable({ cause: error });
  }
  return { email };
}

/**
 * Makes the account from the registration form, with the mailed code when the admin asks for
 * e-mail verification. The first account on an empty database is the administrator.
 */
export async function completeRegistration(
  deps: Omit<CodeDeps, 'codes'> &
    RegistrationSettings &
    Pick<AuthDeps, 'eventLog' | 'onUserCreated'>,
  {
    language,
    requestId,
    ...input
  }: CompleteRegistrationInput & { language: Language; requestId?: string },
): Promise<{ user: User }> {
  const { db, clock, eventLog, onUserCreated } = deps;
  const { email } = input;
  const now = clock.now();
  const { emailVerification } = await registrationOpen(deps);
  // Without verification (the admin's choice) the account is made from the form alone.
  let claimed: { id: string } | undefined;
  if (emailVerification) {
    if (!input.otp) throw otpRequired();
    claimed = await checkCode(deps, { address: email, purpose: 'registration', otp: input.otp });
  }

  const passwordHash = await hashPassword(input.password);
  let created: UserRow;
  try {
    created = await db.transaction(async (tx) => {
      await repo.lockRegistrations({ db: tx });
      if (claimed && !(await repo.consumeEmailCode({ db: tx, id: claimed.id, now }))) {
        throw otpMissing();
      }
      // The first account on an empty database runs the system.
      const role: Role = (await repo.countUsers({ db: tx })) === 0 ? 'admin' : 'user';
      const row = await insertAccount({
        tx,
        account: { name: input.name, email, role, passwordHash, language },
      });
      if (!row) throw emailTaken();
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  eventLog.record({
    category: 'auth',
    event: 'auth.registered',
    message: `Account registered (${created.role})`,
    userId: created.id,
    requestId,
    context: { role: created.role, language, verified: Boolean(claimed) },
  });
  await onUserCreated(created.id);
  return { user: toUser(created) };
}

/** Refuses a registration step while the admin has closed registration (or the system is in maintenance). */
async function registrationOpen({
  systemSettings,
}: RegistrationSettings): Promise<{ emailVerification: boolean }> {
  const system = await systemSettings();
  if (system.maintenanceMode) throw underMaintenance();
  if (!system.registrationEnabled) throw registrationClosed();
  return system;
}
