import isEmail from 'validator/lib/isEmail.js';
import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages';
import { textInput } from '../text/text.schemas';
import { whatsappAccountExportSchema } from '../whatsapp/whatsapp.schemas';
import { myAgentExportSchema } from '../agents/my-agent-documents.schemas';

/**
 * Account payloads and rules, shared by the server's validation and the web's forms. Messages are
 * translation keys (see `locales/`): the web shows them with `t()`, the server translates them into
 * the caller's language in its `errors` field.
 */

export const NAME_MIN = 2;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 6;
/** Caps the work one login or registration can ask of the password hash. */
export const PASSWORD_MAX = 128;
export const OTP_LENGTH = 6;
export const OTP_RESEND_SECONDS = 60;
export const OTP_TTL_MINUTES = 10;
export const OTP_MAX_ATTEMPTS = 5;
export const SESSION_TIMEOUT_MINUTES = 30;
/** A session ends this long after its sign-in however much it is used: then sign in again. */
export const SESSION_MAX_AGE_DAYS = 30;

/** Text, @, text, dot, text: what a sign-in name must look like to be an e-mail. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Control, format (zero-width, joiners, direction marks), private-use and unassigned characters. */
const INVISIBLE = /\p{C}/u;

/**
 * An address has one written form: the text NFKC leaves as it is, lower-cased. Text that NFKC
 * would change (a KELVIN SIGN that becomes K, full-width letters) or that hides invisible
 * characters is refused rather than turned into another address: a code mailed to one address
 * could otherwise register another.
 */
const writtenOnce = (v: string) => !INVISIBLE.test(v) && v.normalize('NFKC') === v;

export const roleSchema = z.enum(['admin', 'user']);
export type Role = z.infer<typeof roleSchema>;

/**
 * What a mail server takes as an address, as validator.js checks it: beyond EMAIL_PATTERN's "text @
 * text . text", no trailing dot, no two dots in a row, no domain label that starts or ends with a
 * hyphen, a top-level domain of letters. Accented names and domains are addresses; quoted names and
 * IP domains are not offered to the mail server.
 */
const deliverable = (v: string) =>
  isEmail(v, {
    require_tld: true,
    allow_ip_domain: false,
    allow_utf8_local_part: true,
    blacklisted_chars: '"',
  });

/** An address to register or mail, in its one written form. */
export const emailSchema = textInput({ error: 'validation.emailRequired' })
  .trim()
  .min(1, 'validation.emailRequired')
  .max(EMAIL_MAX, 'validation.emailTooLong')
  .refine(writtenOnce, { message: 'validation.emailInvalid', abort: true })
  .toLowerCase()
  .refine(deliverable, 'validation.emailInvalid');

/** A name, trimmed: empty is missing; one letter is there but too short, and says so. */
export const nameSchema = textInput({ error: 'validation.nameRequired' })
  .trim()
  .min(1, { message: 'validation.nameRequired', abort: true })
  .min(NAME_MIN, 'validation.nameTooShort')
  .max(NAME_MAX, 'validation.nameTooLong');

export const passwordSchema = textInput({ error: 'validation.passwordRequired' })
  .min(1, 'validation.passwordRequired')
  .min(PASSWORD_MIN, 'validation.passwordTooShort')
  .max(PASSWORD_MAX, 'validation.passwordTooLong');

export const otpSchema = textInput({ error: 'validation.otpRequired' })
  .trim()
  .min(1, 'validation.otpRequired')
  .length(OTP_LENGTH, 'validation.otpLength')
  .regex(/^[0-9]+$/, 'validation.otpDigits');

/** Login: `email` holds a username or an e-mail. */
export const loginSchema = z.object({
  email: textInput({ error: 'validation.identifierRequired' })
    .trim()
    .min(1, 'validation.identifierRequired')
    .max(EMAIL_MAX, 'validation.identifierTooLong')
    .refine(
      (v) => !v.includes('@') || (writtenOnce(v) && EMAIL_PATTERN.test(v)),
      'validation.emailInvalid',
    )
    // Usernames are lower-case, addresses are kept in their one written form.
    .toLowerCase(),
  password: textInput({ error: 'validation.passwordRequired' })
    .min(1, 'validation.passwordRequired')
    .max(PASSWORD_MAX, 'validation.passwordTooLong'),
});
export type LoginInput = z.infer<typeof loginSchema>;

const confirmPasswordSchema = textInput({ error: 'validation.confirmPasswordRequired' }).min(
  1,
  'validation.confirmPasswordRequired',
);

/** A new password's confirmation must repeat it (said on the confirmation, once it is typed). */
const passwordsMatch = (v: { password: string; confirmPassword: string }) =>
  v.confirmPassword === '' || v.password === v.confirmPassword;
const passwordsDoNotMatch = {
  message: 'validation.passwordsDoNotMatch',
  path: ['confirmPassword'],
};

/** Registration step 1, as the web form holds it. */
export const registerFormSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: confirmPasswordSchema,
  })
  .refine(passwordsMatch, passwordsDoNotMatch);
export type RegisterFormInput = z.infer<typeof registerFormSchema>;

/**
 * Registration step 2, as the web form holds it: the code, and step 1's password with its
 * confirmation. The page keeps the password in memory only (never in the browser's storage), so
 * after a reload the code step asks for it again.
 */
export const verifyFormSchema = z
  .object({ otp: otpSchema, password: passwordSchema, confirmPassword: confirmPasswordSchema })
  .refine(passwordsMatch, passwordsDoNotMatch);
export type VerifyFormInput = z.infer<typeof verifyFormSchema>;

export const otpPurposeSchema = z.enum(['registration']);
/** Every purpose a mailed code serves; only registration codes are asked for through send-otp. */
export type OtpPurpose = 'registration' | 'password-reset';

export const sendOtpSchema = z.object({
  email: emailSchema,
  purpose: otpPurposeSchema,
});
export type SendOtpInput = z.infer<typeof sendOtpSchema>;

export const completeRegistrationSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  /** Required unless the admin turned e-mail verification off (the server checks). */
  otp: otpSchema.optional(),
});
export type CompleteRegistrationInput = z.infer<typeof completeRegistrationSchema>;

export const switchRoleSchema = z.object({ targetRole: roleSchema });
export type SwitchRoleInput = z.infer<typeof switchRoleSchema>;

/** The user object, the same in every response. */
export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  role: roleSchema,
  originalRole: roleSchema,
  /**
   * Set for an account an admin made for one agent only (its name): the web takes it to that
   * agent's page and shows no other agent; the server refuses it any hire.
   */
  singleAgentName: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

export const messageResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
});
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const sessionResponseSchema = messageResponseSchema.extend({
  user: userSchema,
  token: z.string(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const userResponseSchema = z.object({ user: userSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;

// ---- Your account (profile, password, sessions, forgotten password, LGPD) ----

/** Caps the User-Agent kept per session: enough for any real browser, nothing for a flood. */
export const USER_AGENT_MAX = 512;

const languageSchema = z.enum(LANGUAGES, { error: 'validation.languageInvalid' });

/** A password the person already has (sign-in, change, deletion): required, length-capped. */
const existingPasswordSchema = (required: string) =>
  textInput({ error: required }).min(1, required).max(PASSWORD_MAX, 'validation.passwordTooLong');

export const updateProfileSchema = z.object({
  name: nameSchema,
  /** Kept on the account: mails (a forgotten-password code) are written in it. */
  language: languageSchema,
});
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

export const profileResponseSchema = z.object({ user: userSchema, language: languageSchema });
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

export const updateProfileResponseSchema = messageResponseSchema.extend({
  user: userSchema,
  language: languageSchema,
});
export type UpdateProfileResponse = z.infer<typeof updateProfileResponseSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: existingPasswordSchema('validation.currentPasswordRequired'),
    newPassword: passwordSchema,
    confirmPassword: confirmPasswordSchema,
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'validation.passwordsDoNotMatch',
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** One signed-in session as the sessions list shows it; the device is read from its User-Agent. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  /** e.g. "Firefox 128", null when the User-Agent named none. */
  browser: z.string().nullable(),
  /** e.g. "Android 14", "Windows 10". */
  os: z.string().nullable(),
  deviceType: z.enum(['desktop', 'mobile', 'tablet', 'other']),
  /** ISO 8601. */
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const sessionsResponseSchema = z.object({ sessions: z.array(sessionInfoSchema) });
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** Forgotten password, step 2: the mailed code and the new password. */
export const resetPasswordSchema = z
  .object({
    email: emailSchema,
    otp: otpSchema,
    password: passwordSchema,
    confirmPassword: confirmPasswordSchema,
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'validation.passwordsDoNotMatch',
    path: ['confirmPassword'],
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const deleteAccountSchema = z.object({
  password: existingPasswordSchema('validation.passwordRequired'),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** "Download my data" (LGPD art. 18): everything the account holds, never a hash or a secret. */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  account: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    username: z.string(),
    role: roleSchema,
    language: languageSchema,
    createdAt: z.string(),
  }),
  sessions: z.array(sessionInfoSchema.omit({ current: true })),
  hires: z.array(z.object({ agentName: z.string(), displayName: z.string() })),
  conversations: z.array(
    z.object({
      id: z.string(),
      agentName: z.string(),
      createdAt: z.string(),
      messages: z.array(
        z.object({
          id: z.string(),
          text: z.string(),
          sender: z.enum(['user', 'bot']),
          timestamp: z.string(),
        }),
      ),
    }),
  ),
  whatsapp: whatsappAccountExportSchema,
  /** The agents the account made of its own, with everything it taught them and their documents. */
  myAgents: z.array(myAgentExportSchema),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

/**
 * POST /api/account/export/archive-link: where this session's browser downloads its data with
 * the files (a ZIP holding `data.json`, the export above, and `media/…`), for the next few minutes.
 */
export const accountArchiveLinkSchema = z.object({
  success: z.literal(true),
  /** Same origin, signed for this session; it ends with the session, or after a few minutes. */
  url: z.string(),
});
export type AccountArchiveLink = z.infer<typeof accountArchiveLinkSchema>;
