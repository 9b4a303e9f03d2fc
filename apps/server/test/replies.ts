import {
  REPLY_QUEUE_NAME,
  type ReplyJob,
  type ReplyOutcome,
} from '../src/features/whatsapp/whatsapp.service';
import type { FinishedJob, TestContext } from './helpers';

/** A contact's message's auto-reply, once settled. */
export type Reply = ReplyJob & { outcome: ReplyOutcome };

/**
 * What a contact's message made of its conversation's reply job: that job's outcome, or, when
 * the message joined a job already waiting in its conversation, 'skipped' (that job answers it
 * with the others; it asked for no reply of its own). A try that failed for good is 'failed'.
 */
function replyOf({ data, joined, settled }: FinishedJob): Reply {
  const { userId, conversationId } = data as ReplyJob;
  const outcome = joined
    ? 'skipped'
    : settled.state === 'completed'
      ? (settled.output?.outcome as ReplyOutcome)
      : 'failed';
  return { userId, conversationId, outcome };
}

/**
 * The WhatsApp auto-replies the contacts' messages to `ctx` asked for (each message that may be
 * answered sends its conversation's reply job), in the order the messages came.
 */
export function repliesOf(ctx: Pick<TestContext, 'jobs'>) {
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
     * The `count` replies of `userId`'s account (any account without one) asked for from the
     * `since`th on, once each has settled on whichever instance made it.
     */
    async settled({
      userId,
      since = 0,
      count = 1,
    }: {
      userId?: string;
      since?: number;
      count?: number;
    }): Promise<Reply[]> {
      const finished = await ctx.jobs.settled({
        queue: REPLY_QUEUE_NAME,
        since,
        count,
        where: (job) => userId === undefined || (job.data as ReplyJob).userId === userId,
      });
      return finished.map(replyOf);
    },
  };
}
