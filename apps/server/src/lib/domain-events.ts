import type { ReplyOutcome } from '@/features/ai/ai.service';

/**
 * Every domain event and its payload, in one place: what one feature tells the others that
 * happened, so that none of them calls another back through the composition root. A new event is
 * a new line here; emitters and listeners are checked against it.
 *
 * All of them are heard in this process only: each is about a change already in the database, so
 * the instance that made it is the one to react (what the others must see, they read from the
 * database or hear through the shared state's publish/subscribe, as the caches and the sockets do).
 */
export type DomainEvents = {
  /**
   * A new account exists (registration): the agents feature hires it its default agent. Awaited,
   * so the account has its agent before registration answers.
   */
  'user.created': { userId: string };
  /**
   * An account deleted itself (committed; its rows went with it): WhatsApp unlinks its number
   * from the phone, wherever its connection is open. Awaited, so the deletion answers with it done.
   */
  'user.deleted': { userId: string };
  /**
   * An admin deleted an agent (committed): WhatsApp conversations and accounts that used it go
   * back to their defaults before the deletion answers.
   */
  'agent.deleted': { agentId: string };
  /**
   * A real reply through the language model ended, well or not (not one the user stopped): the
   * monitor tells a failing provider from a working one.
   */
  'ai.reply.finished': ReplyOutcome;
};

export type DomainEventName = keyof DomainEvents;
export type DomainEventListener<N extends DomainEventName> = (
  payload: DomainEvents[N],
) => void | Promise<void>;

export interface DomainEventBus {
  /**
   * Tells every listener of `name`, one after the other in the order they began listening, each
   * awaited: the promise settles once all of them have handled it, so an emitter that awaits it
   * answers with the other features' reactions done (a registration, its default agent hired). A
   * listener that fails does not keep the event from the next; the promise then rejects with that
   * failure (an AggregateError for several). An emitter that does not wait must catch it.
   */
  emit<N extends DomainEventName>(name: N, payload: DomainEvents[N]): Promise<void>;
  /** Calls `listener` with every `name` emitted from now on; returns the function that stops it. */
  on<N extends DomainEventName>(name: N, listener: DomainEventListener<N>): () => void;
}

/** The in-process bus of one app: features listen while their module is registered. */
export function createDomainEventBus(): DomainEventBus {
  const listeners = new Map<DomainEventName, Set<DomainEventListener<never>>>();
  return {
    async emit(name, payload) {
      const failures: unknown[] = [];
      for (const listener of [...(listeners.get(name) ?? [])]) {
        try {
          await (listener as DomainEventListener<typeof name>)(payload);
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) throw new AggregateError(failures, `${name}: listeners failed`);
    },
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as DomainEventListener<never>);
      return () => void set.delete(listener as DomainEventListener<never>);
    },
  };
}
