import type { Language, User } from '@contrateia/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { EventHub } from '@/lib/event-hub';
import type { EventLog } from '@/lib/event-log';
import type { Translate } from '@/lib/i18n';
import type { Jobs, Queue } from '@/lib/jobs';
import type { SharedState } from '@/lib/shared-state';
import type { AgentsService } from '@/features/agents/agents.service';
import type { AgentEngine, MediaUnderstanding } from '@/features/ai/ai.service';
import type { ChatService } from '@/features/chat/chat.service';
import type { MediaFiles } from './whatsapp.media';
import type { ReplyJob } from './whatsapp.reply';
import type { WhatsAppAccountRow, WhatsAppConversationRow } from './whatsapp.table';
import type { TransportEventSink, WhatsAppTransport } from './transports/transport';

/**
 * How fast one contact may write to an account before its conversation is blocked (status
 * `blocked`: stored and shown, never answered) for `blockSeconds`: a person does not write 20
 * messages a minute, and every answer costs an agent's reply. WHATSAPP_CONTACT_LIMIT_PER_MINUTE.
 */
export const DEFAULT_CONTACT_LIMIT = { points: 20, durationSeconds: 60, blockSeconds: 15 * 60 };
/** Messages the owner may send by hand per minute (WHATSAPP_SEND_LIMIT_PER_MINUTE): each one goes out from their number. */
export const DEFAULT_SEND_LIMIT_PER_MINUTE = 30;
/**
 * How old a message delivered on connect (it waited while the number was not connected) may be
 * and still be answered, in minutes (WHATSAPP_CATCHUP_MINUTES): an answer an hour late to
 * "are you open now?" does more harm than none; older ones are shown as not answered.
 */
export const DEFAULT_CATCHUP_MINUTES = 10;
/**
 * How long a message the owner writes to a contact (from the web or the phone) pauses the agent
 * in that conversation, in minutes (WHATSAPP_TAKEOVER_MINUTES); 0: never paused. A person took
 * over: the agent talking over them is what makes a business switch it off.
 */
export const DEFAULT_TAKEOVER_MINUTES = 30;

/**
 * How the number answers like a person, not a machine that gets it banned: a contact's burst is
 * answered once, `debounceMs` after its last message (WHATSAPP_DEBOUNCE_MS; 0: each at once); a
 * reply waits `typingMsPerChar` per character before it goes, between TYPING_WAIT_MS's bounds
 * (WHATSAPP_TYPING_MS_PER_CHAR; 0: no wait); the number sends `sendsPerMinute` at most, the
 * agent's and the owner's together, the rest waiting their turn (WHATSAPP_SENDS_PER_MINUTE).
 */
export type Pacing = { debounceMs: number; typingMsPerChar: number; sendsPerMinute: number };
export const DEFAULT_PACING: Pacing = { debounceMs: 2500, typingMsPerChar: 30, sendsPerMinute: 40 };
/** The typing wait of a reply, when there is one: never shorter than a second nor longer than six. */
export const TYPING_WAIT_MS = { min: 1000, max: 6000 };

/** How long a reply of `text` is "typed" before it goes: 0 when pacing is off. */
export function typingWaitMs({ typingMsPerChar }: Pick<Pacing, 'typingMsPerChar'>, text: string) {
  if (typingMsPerChar <= 0) return 0;
  return Math.min(TYPING_WAIT_MS.max, Math.max(TYPING_WAIT_MS.min, text.length * typingMsPerChar));
}

/** The language of what nobody asked in a language of their own: replies that failed, events. */
export const DEFAULT_LANGUAGE: Language = 'pt-BR';

/** What createWhatsAppService is given. */
export type WhatsAppDeps = {
  db: Db;
  clock: Clock;
  /** The same agent engine the chat feature answers with. */
  engine: AgentEngine;
  /** Contacts' voice notes transcribed and photos seen, as far as the provider in force can. */
  understanding: MediaUnderstanding;
  agents: AgentsService;
  /** Where contacts' messages are counted and blocks told, shared by every instance. */
  state: SharedState;
  events: EventHub;
  /** Makes the transport, given the sink it reports to (this service's handleTransportEvent). */
  createTransport: (sink: TransportEventSink) => WhatsAppTransport;
  translate: (language: Language) => Translate;
  logger: FastifyBaseLogger;
  /** Where auto-replies wait and run: a job per conversation, on whichever instance takes it. */
  jobs: Jobs;
  /**
   * The agent engine's timeout in force (the provider's silence it waits out): a reply's try is
   * given a few of them, then aborted, and past that another instance may try it again.
   */
  replyTimeoutMs: () => Promise<number>;
  /** Messages one contact may write per window before it is blocked, and for how long. */
  contactLimit?: Partial<typeof DEFAULT_CONTACT_LIMIT>;
  /** Messages one owner may send by hand per minute, counted on every instance. */
  sendLimitPerMinute?: number;
  /** How old, in minutes, a message delivered on connect may be and still be answered. */
  catchupMinutes?: number;
  /** How long, in minutes, a message of the owner to a contact pauses its agent (0: never). */
  takeoverMinutes?: number;
  /** Bursts, typing and the number's sending rate (DEFAULT_PACING for what is not given). */
  pacing?: Partial<Pacing>;
  /** The auth feature's word on an account: one an admin deactivated gets no auto-replies. */
  isAccountActive: (userId: string) => Promise<boolean>;
  /** The stored log: each account's connection changes (connected, closed and why, logged out). */
  eventLog: EventLog;
  /** This site's address: a reply's links to its pages are sent whole. */
  publicUrl: string;
  /** Received files: kept under DATA_DIR/media, checked, served through signed addresses. */
  media: MediaFiles;
  /** The account whose number is the platform's (WHATSAPP_PLATFORM_ACCOUNT), as the auth feature finds it now. */
  platformAccount: () => Promise<{ id: string; email: string } | undefined>;
  /** An account that exists and is active, as the auth feature knows it: a paired chat's user. */
  activeUser: (userId: string) => Promise<User | undefined>;
  /** The chat feature's side of Sync Agent: codes, and the conversations paired chats continue. */
  chat: Pick<
    ChatService,
    | 'createPairing'
    | 'consumePairing'
    | 'pairedConversationOf'
    | 'pairedAgent'
    | 'pairedHistory'
    | 'storePairedTurn'
    | 'storeAgentMessage'
  >;
};

type Counter = ReturnType<SharedState['counter']>;

/**
 * What the WhatsApp use cases take: WhatsAppDeps, and what createWhatsAppService makes of them
 * once (the limits' counters, the per-chat queues, the transport, the reply queue). Each use
 * case takes only its part of it (a `Pick`), so its signature says what it touches.
 */
export type WhatsAppContext = Omit<
  WhatsAppDeps,
  | 'createTransport'
  | 'replyTimeoutMs'
  | 'contactLimit'
  | 'sendLimitPerMinute'
  | 'catchupMinutes'
  | 'takeoverMinutes'
  | 'pacing'
> & {
  catchupMinutes: number;
  takeoverMinutes: number;
  pacing: Pacing;
  /** Every send of a number (agent's and owner's), per account, WHATSAPP_SENDS_PER_MINUTE. */
  numberSendCounter: Counter;
  contactLimit: typeof DEFAULT_CONTACT_LIMIT;
  /** Each contact's messages, counted per conversation on every instance. */
  contactCounter: Counter;
  /** A blocked contact's messages over a day, per contact (see BLOCKED_DAILY_MESSAGES). */
  blockedDayCounter: Counter;
  /** The owner's own sends, per account. */
  sendCounter: Counter;
  /** Pairing codes asked for, per account (see PAIRING_CODES_PER_WINDOW). */
  pairingCodeCounter: Counter;
  /** Each account's connection events, and each chat's messages, handled one after the other. */
  queues: Map<string, Promise<void>>;
  transport: WhatsAppTransport;
  replyQueue: Queue<ReplyJob>;
};

/**
 * blocked: the owner blocked the contact, or it wrote too fast and its block has not ended;
 * pending: whitelist mode is on and the contact is not on it; otherwise active. Only an active
 * conversation is answered.
 */
export function statusOf(
  account: Pick<WhatsAppAccountRow, 'whitelistMode'> | undefined,
  conversation: WhatsAppConversationRow,
  now: Date,
): 'active' | 'blocked' | 'pending' {
  if (conversation.blockedByOwner || isBlocked(conversation, now)) return 'blocked';
  return account?.whitelistMode && !conversation.isWhitelisted ? 'pending' : 'active';
}

/** Why the conversation is blocked now: by its owner, or for writing too fast; undefined when it is not. */
export function blockReasonOf(
  conversation: WhatsAppConversationRow,
  now: Date,
): 'owner' | 'flood' | undefined {
  if (conversation.blockedByOwner) return 'owner';
  return isBlocked(conversation, now) ? 'flood' : undefined;
}

/** Whether the contact's block for writing too fast has yet to end. */
export function isBlocked(conversation: WhatsAppConversationRow, now: Date): boolean {
  return conversation.blockedUntil !== null && conversation.blockedUntil > now;
}
