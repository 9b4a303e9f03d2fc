import type { Role } from '@contrateia/shared';
import { AppError, defineError, retryLater } from '@/lib/errors';

// ---- Sessions ----

/** No live session: no token, an ended one, or its account gone (deleted on another device). */
export const unauthorized = defineError(401, 'errors.unauthorized');

/** A signed-in user not in admin mode at an admin's route (an admin in user mode is a user). */
export const forbidden = defineError(403, 'errors.forbidden');

// ---- Registration and e-mail codes ----

export const registrationClosed = defineError(403, 'auth.registrationClosed');

/** E-mail verification is on and the form came without the code. */
export const otpRequired = defineError(400, 'validation.otpRequired', { field: 'otp' });

/** No code to check: none was sent, or it was used. */
export const otpMissing = defineError(400, 'auth.otpMissing', { field: 'otp' });

export const otpExpired = defineError(400, 'auth.otpExpired', { field: 'otp' });

export const otpInvalid = defineError(400, 'auth.otpInvalid', { field: 'otp' });

export const otpAttemptsExhausted = defineError(400, 'auth.otpAttemptsExhausted', { field: 'otp' });

/** A new code asked for within the resend cooldown: a 429 saying when one may be sent. */
export const otpCooldown = (waitMs: number) => retryLater('auth.otpCooldown', waitMs);

export const emailTaken = defineError(409, 'auth.emailTaken', { field: 'email' });

// ---- Signing in and modes ----

export const invalidCredentials = defineError(401, 'auth.invalidCredentials');

/** An account an admin deactivated: it signs in no more, nor gets a new password. */
export const accountDisabled = defineError(403, 'auth.accountDisabled');

/** A sign-in turn to wait while it is short, in seconds. */
export const loginThrottledSeconds = (waitMs: number) =>
  retryLater('auth.loginThrottledSeconds', waitMs);

/** A sign-in turn to wait, in minutes (a longer wait, or an IP walled off). */
export const loginThrottled = (waitMs: number) =>
  retryLater('auth.loginThrottled', waitMs, (seconds) => Math.ceil(seconds / 60));

export const roleSwitchForbidden = defineError(403, 'auth.roleSwitchForbidden');

/** A switch to the mode the user is in already; the message names the mode, translated. */
export const alreadyInMode = (role: Role) =>
  new AppError(400, 'auth.alreadyInMode', { params: { role: { key: `auth.roleNames.${role}` } } });

// ---- The user's own account ----

/** The account's own password, asked again before a change or a deletion, was wrong (on `field`). */
export const wrongPassword = (field: string) =>
  new AppError(400, 'account.wrongPassword', { field });

/**
 * An address to download the account's ZIP that is not one the server gave, has expired, or whose
 * session has ended since.
 */
export const archiveLinkInvalid = defineError(403, 'account.archiveLinkInvalid');

/** A deletion that would leave the system without an administrator. */
export const lastAdminCannotLeave = defineError(409, 'account.lastAdmin');

// ---- Accounts as an admin manages them ----

export const accountNotFound = defineError(404, 'adminUsers.notFound');

export const accountEmailTaken = defineError(409, 'adminUsers.emailTaken', { field: 'email' });

export const cannotDeactivateSelf = defineError(400, 'adminUsers.selfDeactivate');

export const cannotDemoteSelf = defineError(400, 'adminUsers.selfDemote');

/** A change that would leave no active administrator. */
export const lastActiveAdmin = defineError(400, 'adminUsers.lastAdmin');

/** An account made for one agent has no dashboard, catalogue or panel: it stays a user. */
export const singleAgentNotAdmin = defineError(400, 'adminUsers.singleAgentNotAdmin');
