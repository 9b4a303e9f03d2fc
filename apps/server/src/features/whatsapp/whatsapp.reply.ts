import type { Language } from '@contrateia/shared';
import { defineQueue, type Job } from '@/lib/jobs';
import { engineAgentOf, type AgentRow } from '@/features/agents/agents.service';
import {
  boundTurn,
  detectLanguage,
  MAX_IMAGES_PER_TURN,
  replyToEnd,
  runAgentReply,
  type HistoryLoader,
} from '@/features/ai/ai.service';
import { toWhatsAppText } from './whatsapp-format';
import { storeOutgoing } from './whatsapp.outbox';
import {
  DEFAULT_LANGUAGE,
  statusOf,
  type WhatsAppContext,
  type WhatsAppDeps,
} from './whatsapp.deps';
import { asksForPerson, handoffText } from './whatsapp.handoff';
import * as repo from './whatsapp.repository';
import { pairedReplyId, platformAnswer } from './whatsapp.platform';
import { RELAY_AGENT } from './whatsapp.relay-rules';
import { relayInbound } from './whatsapp.relay-inbound';
import { isPaused } from './whatsapp.takeover';
import { emitNewMessage, toMessage } from './whatsapp.summaries';
import { understand, type Understood } from './whatsapp.understand';
import type { WhatsAppAccountRow, WhatsAppConversationRow } from './whatsapp.table';

/** What came of an auto-reply: kept with its job (`{ outcome }`). */
export type ReplyOutcome = 'sent' | 'skipped' | 'failed';

/** A conversation's auto-reply: what its contact wrote since the last answer, answered. */
export type ReplyJob = { userId: string; conversationId: string };

/** The queue of auto-replies (made by migration 0017), one job per conversation at a time. */
export const REPLY_QUEUE_NAME = 'whatsapp-reply';

/** Earlier messages an auto-reply reads (then cut to the history budget). */
const HISTORY_MESSAGES = 200;
/** The messages since the last answer an auto-reply reads to find its question. */
export const REPLY_CONTEXT_MESSAGES = HISTORY_MESSAGES;
/** Tries of an auto-reply whose provider or transport fails: then the failure shows in the conversation. */
const REPLY_TRIES = 3;
/** How often the contact is told again that the agent is typing: WhatsApp drops it after about 10 s. */
const COMPOSING_REFRESH_MS = 8000;
/** A reply longer than this goes in several messages, split at its paragraphs (see replyParts). */
export const LONG_REPLY_CHARS = 600;
/** The most messages a reply goes in. */
export const REPLY_PARTS = 3;
/** Replies made at once by one instance (each mostly waits on its provider). */
const REPLY_CONCURRENCY = 100;

/**
 * One job per conversation (its key): a message that comes while its conversation's reply is
 * waiting joins it, and one that comes while it is being made waits for it on every instance
 * (the queue is stately), then is answered with the others still unanswered. A try whose
 * provider or transport fails is tried again a little later, up to REPLY_TRIES in all. A try
 * may take three of the engine's timeouts (its stream may go on past one) and half a minute more
 * for the rest of the work; the job's signal aborts it a little before that.
 */
export function replyQueueOf({ replyTimeoutMs }: Pick<WhatsAppDeps, 'replyTimeoutMs'>) {
  return defineQueue<ReplyJob>({
    name: REPLY_QUEUE_NAME,
    tries: REPLY_TRIES,
    retryDelaySeconds: 1,
    expireSeconds: async () => (3 * (await replyTimeoutMs())) / 1000 + 30,
    concurrency: REPLY_CONCURRENCY,
    pollMs: 1000,
  });
}

/**
 * Asks for the conversation's reply: its job, keyed by the conversation (a job of it already
 * waiting takes this one's place), after the burst's wait (WHATSAPP_DEBOUNCE_MS).
 */
export function askReply(
  { jobs, replyQueue, pacing }: Pick<WhatsAppContext, 'jobs' | 'replyQueue' | 'pacing'>,
  userId: string,
  conversationId: string,
) {
  return jobs.send(
    replyQueue,
    { userId, conversationId },
    { key: conversationId, startAfterMs: pacing.debounceMs },
  );
}

type ReplyDeps = Pick<
  WhatsAppContext,
  | 'db'
  | 'clock'
  | 'engine'
  | 'agents'
  | 'events'
  | 'translate'
  | 'logger'
  | 'transport'
  | 'jobs'
  | 'isAccountActive'
  | 'publicUrl'
  | 'chat'
  | 'activeUser'
  | 'platformAccount'
  | 'eventLog'
  | 'media'
  | 'takeoverMinutes'
  | 'understanding'
>;

/**
 * Answers what the contact wrote since the last answer, if the conversation's AI is on and it is
 * active, by its agent (else the account's default), in the contact's language: the reply job's
 * try (one at a time per conversation, see replyQueueOf). Files are taken in as far as the
 * provider can (whatsapp.understand.ts): a voice note by its transcript, a photo seen by a
 * model that sees; one it cannot take in is named once in the reply ("Recebi seu áudio, mas
 * ainda não consigo ouvir áudios. Pode escrever?"), and a document, location or contact card
 * with nothing written goes to the owner by the handoff rules, never described. Nothing is left to answer when an
 * earlier try sent its reply (a try cut short after that is not answered twice). A provider or
 * transport failure throws for the job to be tried again, and is shown in the conversation
 * after the last try.
 */
export async function autoReply(
  deps: ReplyDeps,
  userId: string,
  conversationId: string,
  {
    signal,
    lastAttempt,
    completeWithin,
    prefetched,
  }: Pick<Job<ReplyJob>, 'signal' | 'lastAttempt' | 'completeWithin' | 'prefetched'>,
): Promise<ReplyOutcome> {
  const { db, clock, engine, events, logger, transport, isAccountActive, publicUrl } = deps;
  // Read with the message this job was inserted with, when it started here at once.
  const found =
    (prefetched as repo.ReplyContext | undefined) ??
    (await repo.findReplyContext({ db, id: conversationId, limit: REPLY_CONTEXT_MESSAGES }));
  const conversation = found?.conversation;
  // The conversation's own account, and its own contact's JID: a reply goes nowhere else.
  if (!conversation || conversation.userId !== userId) return 'skipped';
  const account = found.account;
  const { recent } = found;
  let start = recent.length;
  // What the contact wrote since the last answer; nothing from before a message left unanswered
  // for waiting too long to reach the number, or held: written while the owner had taken the
  // conversation over or the contact was blocked, or waiting when the block came.
  while (
    start > 0 &&
    recent[start - 1]!.sender === 'contact' &&
    !recent[start - 1]!.unanswered &&
    !recent[start - 1]!.held
  )
    start -= 1;
  // A message the contact deleted for everyone before the answer (its text and file are gone)
  // asks nothing; a file without caption (a voice note, a photo, a location) does.
  const asked = recent.slice(start).filter((m) => m.text !== '' || m.media !== null);
  if (asked.length === 0) return 'skipped'; // answered with an earlier one, or deleted
  // On the platform's number, Sync Agent answers its codes and its paired chats, and a relay
  // chat's messages go to indirect's senders, whatever the whitelist (the contact's own asking,
  // or an answer to a relay); a block holds them as any other.
  const platform = await platformAnswer(deps, {
    userId,
    conversation,
    text: asked.map((m) => m.text).join('\n'),
  });
  const status = account ? statusOf(account, conversation, clock.now()) : 'blocked';
  if (status === 'blocked' || (status === 'pending' && !platform)) return 'skipped';
  // The owner took the conversation over: what the contact writes meanwhile is theirs to answer
  // (it is stored held, so nothing is left to hear either). Never a paired chat: the owner does not see it.
  if (!platform && isPaused(conversation, clock.now())) return 'skipped';
  // Deactivated by an admin: its contacts' messages are kept, and nobody answers for it.
  if (!(await isAccountActive(userId))) return 'skipped';
  if (platform?.kind === 'closed') return 'skipped';
  if (platform?.kind === 'relay') {
    const notice = await relayInbound(deps, { conversation, asked });
    if (!notice) return 'skipped';
    return storeReply(deps, userId, conversation, {
      text: notice,
      agentName: RELAY_AGENT,
      completeWithin,
      answerable: false,
      shown: false,
    });
  }
  if (platform?.kind === 'code')
    return storeReply(deps, userId, conversation, {
      text: platform.text,
      agentName: platform.agentName,
      completeWithin,
      answerable: false,
      shown: false,
    });
  const abilities = await deps.understanding.abilities();
  if (!conversation.aiEnabled && !platform) {
    // Nobody answers here, yet a voice note's words are the owner's to read: heard once, as
    // far as the provider can, never tried again for this job.
    await understand(deps, userId, asked, {
      abilities: { ...abilities, vision: false },
      retry: false,
      signal,
    });
    return 'skipped';
  }
  /** What was asked stays shown and is held: nobody answers it, now or along with a later message. */
  const keepQuiet = async () => {
    await repo.holdMessages({ db, conversationId, seqs: asked.map((m) => m.seq) });
    return 'skipped' as const;
  };
  const paired = platform?.kind === 'paired' ? platform : undefined;
  const agent = paired ? paired.agent : await answeringAgent(deps, account!, conversation);
  // A voice note is transcribed before anything is asked (and again by a try after a failure):
  // its words are what the contact "wrote". Its provider failing fails the try as a reply's
  // would; after the last one, it is answered as unheard.
  const understood = await understand(deps, userId, asked, {
    abilities: agent ? abilities : { ...abilities, vision: false },
    retry: agent !== undefined && !lastAttempt,
    signal,
  });
  // Nobody chosen to answer (or the one chosen is off): an agent chosen later answers what comes next.
  if (!agent) {
    logger.info({ conversationId }, 'whatsapp: no agent chosen to answer');
    return keepQuiet();
  }
  // A backlog (replies that failed leave what they were asked unanswered) is read from its
  // start as far as an engine reads a turn: ten 64 K messages joined are not 640 K to detect.
  const message = boundTurn(understood.text);
  // The turns before the question, read only by an engine that reads history (not the builtin):
  // a paired chat's are its conversation's, on the web and here alike.
  const history: HistoryLoader = paired
    ? deps.chat.pairedHistory({ conversationId: paired.conversationId })
    : async (budgetChars) =>
        (
          await repo.listReplyHistory({
            db,
            conversationId,
            beforeSeq: asked[0]!.seq,
            limit: HISTORY_MESSAGES - asked.length,
            budgetChars,
          })
        ).map((m) => ({ role: m.sender === 'contact' ? 'user' : 'assistant', text: m.text }));
  const { images, notes } = understood;
  const asksSomething = message.trim() !== '' || images.length > 0;
  // A burst of files alone says little of its language: the contact's earlier words do.
  const language =
    asksSomething && notes.length === 0 && !understood.unknown
      ? detectLanguage(message, DEFAULT_LANGUAGE)
      : detectLanguage(message, await earlierLanguage(deps, conversationId, asked[0]!.seq));
  // The contact asked for a person, or the agent found nothing that answers, or sent a document,
  // a location or a contact card with nothing written (a person must see it): it hands over,
  // once until the owner answers (meanwhile it keeps quiet and the owner sees the message).
  // A paired chat is the user's own conversation with the agent: nobody to hand it over to.
  let handoff = !paired && asksForPerson(message);
  if (handoff && conversation.needsHuman) return keepQuiet();
  const jid = conversation.contactJid;
  let text: string;
  if (handoff) text = handoffText(deps, agent, language);
  else if (!asksSomething) {
    if (understood.unknown && !conversation.needsHuman && !paired) {
      handoff = true;
      text = handoffText(deps, agent, language);
    } else if (notes.length > 0) text = mediaNotes(deps, understood, language);
    // Nothing to answer (silence heard as nothing), or what needs the owner while it waits for them.
    else return keepQuiet();
  } else {
    // The contact sees typing while the agent works: WhatsApp drops it after about 10 s, so it is
    // said again until the reply ends (a timer of this try only: a try that dies takes it along).
    const composing = () => transport.sendPresence(userId, jid, 'composing').catch(() => {});
    await composing();
    const typing = setInterval(() => void composing(), COMPOSING_REFRESH_MS);
    let markdown = '';
    const end = await replyToEnd(
      runAgentReply({
        engine,
        logger,
        agent: engineAgentOf(agent),
        question: message,
        history,
        language,
        images,
        // Written for the web chat in Markdown; sent, stored and shown as WhatsApp shows text.
        format: (written) => {
          markdown = written.trim();
          return toWhatsAppText(written, publicUrl);
        },
        signal,
      }),
    ).finally(() => clearInterval(typing));
    if (end.ending !== 'answered') {
      // Stopped (the server stops, or the try's time is up): the job is tried again.
      signal.throwIfAborted();
      await transport.sendPresence(userId, jid, 'paused').catch(() => {});
      if (end.ending === 'failed' && !lastAttempt) throw end.failure;
      await storeFailure(deps, userId, conversationId, agent, 'whatsappServer.replyFailed');
      return 'failed';
    }
    text = end.text;
    if (paired) {
      // Kept in the conversation it continues (the web chat shows it at once), as the web keeps
      // a reply; under ids of the contact's message, so a try repeated keeps it once.
      const last = asked.at(-1)!;
      await deps.chat.storePairedTurn({
        conversationId: paired.conversationId,
        ids: [last.id, pairedReplyId(last.id)],
        userText: message,
        botText: markdown || text,
      });
      events.emit(paired.user.id, 'chat:message', { conversationId: paired.conversationId });
    } else if (end.unknown) {
      if (conversation.needsHuman) {
        await transport.sendPresence(userId, jid, 'paused').catch(() => {});
        return keepQuiet();
      }
      handoff = true;
      text = handoffText(deps, agent, language);
    } else if (understood.unknown && !conversation.needsHuman) {
      // What was written is answered; the document beside it is for a person to see.
      handoff = true;
      text = `${text}\n\n${handoffText(deps, agent, language)}`;
    } else if (notes.length > 0) {
      // The answer first, then what could not be taken in: its question is the contact's next step.
      text = `${text}\n\n${mediaNotes(deps, understood, language)}`;
    }
  }
  signal.throwIfAborted();
  const sent = await storeReply(deps, userId, conversation, {
    text,
    agentName: agent.name,
    completeWithin,
    answerable: !platform,
    shown: !paired,
  });
  if (sent === 'sent') {
    if (handoff) await handedOver(deps, userId, conversation);
    return 'sent';
  }
  await transport.sendPresence(userId, jid, 'paused').catch(() => {});
  return 'skipped';
}

/**
 * Stores a reply pending with its send job, in the statement that ends this job: the send jobs
 * send them in order (and try again), so a reply is never lost between being made and being
 * sent, nor cut after its first part. No "paused" before it: the reply itself ends the typing on
 * the contact's phone. An agent's reply (`answerable`) is dropped, never sent (`skipped`), if
 * the owner blocked the contact, turned its AI off or wrote to the contact (taking it over)
 * while it was being made: the statement checks the conversation as it is then. The owner's
 * pages hear of it unless it is not theirs to see (`shown`: a Sync Agent chat).
 */
async function storeReply(
  deps: ReplyDeps,
  userId: string,
  conversation: WhatsAppConversationRow,
  {
    text,
    agentName,
    completeWithin,
    answerable = true,
    shown = true,
  }: {
    text: string;
    agentName: string;
    completeWithin: Job<ReplyJob>['completeWithin'];
    answerable?: boolean;
    shown?: boolean;
  },
): Promise<ReplyOutcome> {
  const { clock, events } = deps;
  const conversationId = conversation.id;
  const [first, ...following] = replyParts(text);
  const stored = await storeOutgoing(
    deps,
    {
      conversationId,
      text: first!,
      following,
      agentName,
      createdAt: clock.now(),
      answerable,
      job: (messageId) =>
        completeWithin(
          { outcome: 'sent', messageId },
          { outcome: 'skipped' satisfies ReplyOutcome },
        ),
    },
    (stored) => {
      if (shown)
        for (const message of stored?.messages ?? [])
          events.emit(userId, 'whatsapp:message_sent', {
            conversationId,
            message: toMessage(deps, message, DEFAULT_LANGUAGE),
          });
      return stored !== undefined;
    },
  );
  return stored ? 'sent' : 'skipped';
}

/**
 * What the reply says of files it received and cannot take in, in the contact's language: one
 * sentence per kind ("Recebi seu áudio, mas ainda não consigo ouvir áudios. Pode escrever?").
 */
function mediaNotes(
  { translate }: Pick<WhatsAppContext, 'translate'>,
  { notes, pictures }: Pick<Understood, 'notes' | 'pictures'>,
  language: Language,
): string {
  const t = translate(language);
  return notes
    .map((note) =>
      t(`whatsappServer.mediaNote.${note}`, { count: pictures, max: MAX_IMAGES_PER_TURN }),
    )
    .join('\n\n');
}

/** Contact messages before the burst read to tell its language when the burst itself cannot. */
const LANGUAGE_SAMPLE = { messages: 20, chars: 2000 };

/**
 * The language the contact wrote (or spoke) in before `beforeSeq`: what a burst of files alone
 * is answered in; DEFAULT_LANGUAGE when the earlier words do not tell.
 */
async function earlierLanguage(
  { db }: Pick<WhatsAppContext, 'db'>,
  conversationId: string,
  beforeSeq: number,
): Promise<Language> {
  const earlier = await repo.listReplyHistory({
    db,
    conversationId,
    beforeSeq,
    limit: LANGUAGE_SAMPLE.messages,
    budgetChars: LANGUAGE_SAMPLE.chars,
  });
  const said = earlier
    .filter((m) => m.sender === 'contact')
    .map((m) => m.text)
    .join('\n');
  return detectLanguage(said, DEFAULT_LANGUAGE);
}

/**
 * The handoff message is on its way: the conversation needs the owner ("precisa de você") and
 * the agent is paused in it as a takeover pauses it; the owner's pages are told.
 */
async function handedOver(
  { db, clock, events, takeoverMinutes }: ReplyDeps,
  userId: string,
  conversation: WhatsAppConversationRow,
) {
  const pausedUntil =
    takeoverMinutes > 0 ? new Date(clock.now().getTime() + takeoverMinutes * 60_000) : undefined;
  await repo.updateConversation({
    db,
    id: conversation.id,
    userId,
    set: { needsHuman: true, ...(pausedUntil ? { pausedUntil } : {}) },
  });
  events.emit(userId, 'whatsapp:needs_human', { conversationId: conversation.id });
  events.emit(userId, 'whatsapp:conversation_changed', { conversationId: conversation.id });
}

/**
 * A reply as the messages it goes in: a long one (over LONG_REPLY_CHARS) split at its paragraphs
 * ("\n\n"), never inside one, into REPLY_PARTS messages at most, the last holding the rest, as a
 * person writes on WhatsApp; a short one whole.
 */
export function replyParts(text: string): string[] {
  if (text.length <= LONG_REPLY_CHARS) return [text];
  const paragraphs = text.split(/\n{2,}/).filter((paragraph) => paragraph.trim() !== '');
  if (paragraphs.length <= 1) return [text];
  return [
    ...paragraphs.slice(0, REPLY_PARTS - 1),
    paragraphs.slice(REPLY_PARTS - 1).join('\n\n'),
  ].filter((part) => part !== '');
}

/** A reply that failed is shown in the conversation (the owner sees why), and nothing is sent. */
async function storeFailure(
  deps: Pick<WhatsAppContext, 'db' | 'clock' | 'agents' | 'events' | 'translate' | 'media'>,
  userId: string,
  conversationId: string,
  agent: AgentRow,
  key: string,
) {
  const { db, clock } = deps;
  const stored = await repo.insertMessage({
    db,
    values: {
      conversationId,
      waId: null,
      sender: 'user',
      text: '',
      agentName: agent.name,
      error: key,
      createdAt: clock.now(),
    },
    unread: false,
  });
  if (stored) await emitNewMessage(deps, userId, stored);
}

/** The conversation's agent if it may still answer, else the account's default. */
async function answeringAgent(
  deps: Pick<WhatsAppContext, 'agents'>,
  account: WhatsAppAccountRow,
  conversation: WhatsAppConversationRow,
): Promise<AgentRow | undefined> {
  const { agents } = deps;
  const assigned = conversation.agentId
    ? await agents.findById({ id: conversation.agentId })
    : undefined;
  if (assigned && answersContacts(assigned)) return assigned;
  return defaultAgentOf(deps, account);
}

/** Active, and not an admin-only agent: those are never for contacts. */
const answersContacts = (agent: AgentRow) => agent.isActive && !agent.adminOnly;

/**
 * The agent the account chose to answer its contacts, if it still may; none until the account
 * chooses (the platform's own help agent never answers a business's customers unasked).
 */
export async function defaultAgentOf(
  { agents }: Pick<WhatsAppContext, 'agents'>,
  account: WhatsAppAccountRow | undefined,
): Promise<AgentRow | undefined> {
  const chosen = account?.defaultAgentId
    ? await agents.findById({ id: account.defaultAgentId })
    : undefined;
  return chosen && answersContacts(chosen) ? chosen : undefined;
}
