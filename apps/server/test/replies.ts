import {
  REPLY_QUEUE_NAME,
  SEND_QUEUE_NAME,
  type ReplyJob,
  type ReplyOutcome,
} from '../src/features/whatsapp/whatsapp.service';
import { eventually } from './eventually';
import type { FinishedJob, TestContext } from './helpers';

/** A contact's message's auto-reply, once settled. */
export type Reply = ReplyJob & { outcome: ReplyOutcome };

/**
 * What a contact's message made of its conversation's reply job: that job's outcome, or, when
 * the message joined a job already waiting in its conversation, 'skipped' (that job answers it
 * with the others; it asked for no reply of its own). A try that failed for good is 'failed'. A
 * reply made is stored with its send job (the outbox): it is 'sent' once that job sent it, and
 * 'failed' when that job gave up.
 */
async function replyOf(
  ctx: Pick<TestContext, 'jobs' | 'app'>,
  { data, joined, settled }: FinishedJob,
): Promise<Reply> {
  const { userId, conversationId } = data as ReplyJob;
  const outcome = joined
    ? 'skipped'
    : settled.state === 'completed'
      ? (settled.output?.outcome as ReplyOutcome)
      : 'failed';
  const messageId = settled.output?.messageId;
  if (outcome !== 'sent' || typeof messageId !== 'string')
    return { userId, conversationId, outcome };
  // Its own send job, unless it joined one of its conversation's already waiting.
  const send = await sendJobOf(ctx, messageId).catch(() => undefined);
  if (send) {
    const sent = await ctx.jobs.settledJob(SEND_QUEUE_NAME, send);
    if (sent.state !== 'completed') return { userId, conversationId, outcome: 'failed' };
  }
  // A send job sends its conversation's oldest pending message, and may come back later (a typing
  // wait, the number's rate): the reply is sent once its message is, by whichever job.
  let status = await statusOf(ctx, messageId);
  if (status === 'pending')
    await eventually(
      async () => (status = await statusOf(ctx, messageId)) !== 'pending',
      `message ${messageId} sent or failed`,
      20_000,
    );
  return { userId, conversationId, outcome: status === 'failed' ? 'failed' : 'sent' };
}

/** The delivery status of the outgoing message `messageId`, as stored. */
async function statusOf(ctx: Pick<TestContext, 'app'>, messageId: string): Promise<string> {
  const { rows } = await ctx.app.platform.database.execute(
    `SELECT status FROM whatsapp_messages WHERE id = $1`,
    [messageId],
  );
  return String(rows[0]?.status);
}

/**
 * The first send job sent for the outgoing message `messageId` (inserted with it, on any
 * instance): send jobs are keyed by conversation, and each carries the message it was sent for.
 */
export async function sendJobOf(ctx: Pick<TestContext, 'app'>, messageId: string): Promise<string> {
  // The app's own database: that of both instances when two share one.
  const { rows } = await ctx.app.platform.database.execute(
    `SELECT id, created_on FROM pgboss.job WHERE name = $1 AND data->>'messageId' = $2
     UNION ALL SELECT id, created_on FROM pgboss.archive WHERE name = $1 AND data->>'messageId' = $2
     ORDER BY created_on LIMIT 1`,
    [SEND_QUEUE_NAME, messageId],
  );
  if (!rows[0]) throw new Error(`no send job of message ${messageId}`);
  return String(rows[0].id);
}

/**
 * The WhatsApp auto-replies the contacts' messages to `ctx` asked for (each message that may be
 * answered sends its conversation's reply job), in the order the messages came.
 */
export function repliesOf(ctx: Pick<TestContext, 'jobs' | 'app'>) {
  const sent = () => ctx.jobs.sentTo(REPLY_QUEUE_NAME).map((job) => job.data as ReplyJob);
  return {
    /** Every reply asked for so far, settled or not. */
    get all(): ReplyJob[] {
      return sent();
    },
    get count(): number {
      return sent().length;
    },
    /**
     * The `count` replies of `userId`'s account (any account without one), of its conversation
     * `conversationId` when given, asked for from the `since`th on, once each has settled on
     * whichever instance made it.
     */
    async settled({
      userId,
      conversationId,
      since = 0,
      count = 1,
      timeoutMs,
    }: {
      userId?: string;
      conversationId?: string;
      since?: number;
      count?: number;
      /** How long until it fails: the jobs' default unless given (a catch-up takes longer). */
      timeoutMs?: number;
    }): Promise<Reply[]> {
      const finished = await ctx.jobs.settled({
        queue: REPLY_QUEUE_NAME,
        since,
        count,
        timeoutMs,
        where: (job) => {
          const data = job.data as ReplyJob;
          return (
            (userId === undefined || data.userId === userId) &&
            (conversationId === undefined || data.conversationId === conversationId)
          );
        },
      });
      return Promise.all(finished.map((job) => replyOf(ctx, job)));
    },
  };
}
