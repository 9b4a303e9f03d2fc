import type { Readable } from 'node:stream';
import type { AccountExport, Language, SystemSettings, User } from '@contrateia/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { EventLog } from '@/lib/event-log';
import type { MaybePromise } from '@/lib/maybe-promise';
import type { Translate } from '@/lib/i18n';
import type { Mailer } from '@/lib/mail';
import type { createUrlSigner } from '@/lib/url-signer';
import type { Authenticator } from './auth.authenticator';
import type { SessionStore } from './auth.sessions';
import type { CodeLimiter, LoginThrottle } from './auth.throttle';

/**
 * Everything the auth use cases may need, given once to createAuthService. Each use case takes
 * only its part of it (a `Pick`), so its signature says what it touches.
 */
export type AuthDeps = {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sessions: SessionStore;
  throttle: LoginThrottle;
  /** The codes each address may be sent over a day. */
  codes: CodeLimiter;
  /** Keys the e-mail code hashes, so a leaked table does not reveal live codes. */
  codeKey: string;
  /** The origin links in mails start with (`PUBLIC_URL`). */
  publicUrl: string;
  /** Drops cached copies of a user whose row changed, on every instance. */
  authenticator: Pick<Authenticator, 'forgetUser' | 'activeUser'>;
  /** Texts of the mail, in the language of the person it goes to. */
  translate: (language: Language) => Translate;
  /** Called once a new account exists (it gets its default agent). */
  onUserCreated: (userId: string) => Promise<void>;
  /** Tells the other features an account is gone (its rows deleted). */
  onUserDeleted: (userId: string) => Promise<void>;
  /** The account's data other features hold (hires, conversations, WhatsApp, own agents), for "Download my data". */
  collectUserData: (
    user: User,
    language: Language,
  ) => Promise<Pick<AccountExport, 'hires' | 'conversations' | 'whatsapp' | 'myAgents'>>;
  /** "Download my data" as a ZIP: the stored files behind `data` (its export), then `data`, streamed. */
  archiveUserData: (user: User, data: AccountExport) => Readable;
  /**
   * Signs the short-lived addresses the ZIP is downloaded from, each for one session: a
   * browser's download sends no bearer token, and the file must go to disk as it comes.
   */
  archiveLinks: ReturnType<typeof createUrlSigner>;
  /** The admin's system settings in force: registration open, e-mail verification, maintenance. */
  systemSettings: () => MaybePromise<
    Pick<SystemSettings, 'registrationEnabled' | 'emailVerification' | 'maintenanceMode'>
  >;
  logger: FastifyBaseLogger;
  /** The stored log: sign-ins and failed ones, registrations, role switches. */
  eventLog: EventLog;
};
