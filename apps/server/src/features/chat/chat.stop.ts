import type { FastifyBaseLogger } from 'fastify';
import type { SharedState } from '@/lib/shared-state';

/** How long a request right after Stop may wait for the stopped reply to be stored. */
const STOP_SETTLE_MS = 5_000;
/** Where every instance hears that a stopped reply is stored: the message is its conversation's id. */
const STOPPED_REPLY_STORED = 'chat-stopped-reply-stored';
/** The shared map of a user's stopped replies still being stored: conversation id → '1'. */
const stoppingOf = (userId: string) => `chat-stopping-replies:${userId}`;

export type StopWaits = ReturnType<typeof createStopWaits>;

/**
 * The waits after Stop. A stopped reply is written from the moment its instance notices the Stop
 * (the engine has to end and the exchange to be written); the user's next request, a send or a
 * list read, may reach any instance meanwhile, and then waits for it instead of finding the
 * conversation busy, not there yet, or with the old count. Made once per chat service: it
 * listens on the shared channel from then on.
 */
export function createStopWaits({
  state,
  logger,
}: {
  state: SharedState;
  logger: FastifyBaseLogger;
}) {
  // Whoever waits for a stopped reply hears it stored here, whichever instance stored it.
  const storedListeners = new Set<(conversationId: string) => void>();
  state.subscribe(STOPPED_REPLY_STORED, (conversationId) => {
    for (const listener of storedListeners) listener(conversationId);
  });

  /**
   * Waits, STOP_SETTLE_MS at most, until the replies the user has stopped are stored. Any other
   * reply in progress still gets the 409.
   */
  async function stoppedRepliesStored(userId: string): Promise<void> {
    const heard = new Set<string>();
    let wake = () => {};
    // Listening before looking: a reply stored between the two is heard, not missed.
    const listener = (conversationId: string) => {
      heard.add(conversationId);
      wake();
    };
    storedListeners.add(listener);
    try {
      const stopping = [...(await state.entries(stoppingOf(userId))).keys()];
      const pending = () => stopping.some((id) => !heard.has(id));
      if (!pending()) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_SETTLE_MS);
        wake = () => {
          if (pending()) return;
          clearTimeout(timer);
          resolve();
        };
      });
    } finally {
      storedListeners.delete(listener);
    }
  }

  /**
   * Follows a reply being produced in `conversationId`: from the moment `signal` stops it until
   * it is stored, the user's next request (on any instance) waits for it. `ended` when the reply
   * is over, so a late abort marks nothing; `stored` once it is stored (or failed to be).
   */
  function watchReply({
    userId,
    conversationId,
    signal,
  }: {
    userId: string;
    conversationId: string;
    signal: AbortSignal | undefined;
  }) {
    let marked: Promise<void> | undefined;
    const markStopping = () => {
      marked = state
        .setEntry(stoppingOf(userId), conversationId, '1', STOP_SETTLE_MS)
        .catch((error: unknown) => logger.warn({ err: error }, 'a stopped reply was not marked'));
    };
    if (signal?.aborted) markStopping();
    else signal?.addEventListener('abort', markStopping, { once: true });
    return {
      ended: () => signal?.removeEventListener('abort', markStopping),
      stored: async () => {
        if (!marked) return;
        await marked;
        await announceStored(userId, conversationId);
      },
    };
  }

  /**
   * A stopped reply is stored (or failed to be): whoever waits for it goes on, on every instance.
   * Not hearing of it only makes them wait STOP_SETTLE_MS, so a failure here is no failure of the
   * reply, which is stored.
   */
  async function announceStored(userId: string, conversationId: string) {
    try {
      await state.deleteEntry(stoppingOf(userId), conversationId);
      await state.publish(STOPPED_REPLY_STORED, conversationId);
    } catch (error) {
      logger.warn({ err: error, conversationId }, 'a stopped reply was stored unannounced');
    }
  }

  return { stoppedRepliesStored, watchReply };
}
