/**
 * Which instance owns an account's Baileys socket, and how a command reaches it. One instance at a
 * time holds the account's lease (`accountLease`) and so its socket; a user's request (send a
 * message, open a conversation, disconnect) lands on whichever instance the load balancer chose.
 * There, a command for an account held elsewhere goes out on the shared state's pub/sub; the
 * instance that holds the account says at once that it has it, runs the command on its socket and
 * sends back the result or the error's message. Free of Baileys: nothing here needs the protocol.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { SharedState } from '@/lib/shared-state';

/** The lock whose holder owns the account's socket. */
export const accountLease = (accountId: string) => `whatsapp:account:${accountId}`;

/** How long an account's lease outlives an owner that died (renewed every third of it while held). */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/**
 * How long the instance that holds an account may take to say so (after which the account counts
 * as not connected), and to finish a command (Baileys' own queries give up after a minute).
 */
export const DEFAULT_COMMAND_TIMEOUTS = { answerMs: 3_000, doneMs: 90_000 };

const COMMANDS = 'whatsapp:commands';
const repliesTo = (instanceId: string) => `whatsapp:replies:${instanceId}`;

// Messages come from outside the process: each is checked, and one that does not fit is dropped.
const jidSchema = z.string().min(1).max(200);
const commandSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('sendText'),
    jid: jidSchema,
    text: z.string().max(100_000),
    id: z.string().min(1).max(128),
    read: z.array(z.string().min(1).max(200)).max(1000).optional(),
  }),
  z.object({
    op: z.literal('sendMedia'),
    jid: jidSchema,
    id: z.string().min(1).max(128),
    // Its path, not its bytes: every instance reads the same DATA_DIR/media.
    media: z.object({
      kind: z.enum(['image', 'document']),
      path: z.string().min(1).max(4096),
      mimetype: z.string().min(1).max(255),
      size: z.number().int().nonnegative(),
      fileName: z.string().max(1000).optional(),
      caption: z.string().max(100_000).optional(),
    }),
  }),
  z.object({
    op: z.literal('sendPresence'),
    jid: jidSchema,
    state: z.enum(['composing', 'paused']),
  }),
  z.object({
    op: z.literal('markRead'),
    jid: jidSchema,
    ids: z.array(z.string().min(1).max(200)).max(1000),
  }),
  z.object({ op: z.literal('logout') }),
  z.object({ op: z.literal('requestPairingCode'), phone: z.string().regex(/^\d{10,15}$/) }),
]);
export type AccountCommand = z.infer<typeof commandSchema>;

const requestSchema = z.object({
  id: z.uuid(),
  /** The asking instance: the answer goes to its channel. */
  from: z.uuid(),
  accountId: z.string().min(1).max(100),
  command: commandSchema,
});
type CommandRequest = z.infer<typeof requestSchema>;

const MAX_ERROR_LENGTH = 1000;
const replySchema = z.discriminatedUnion('kind', [
  /** The instance has the account and runs the command. */
  z.object({ id: z.uuid(), kind: z.literal('accepted') }),
  z.object({
    id: z.uuid(),
    kind: z.literal('done'),
    messageId: z.string().min(1).max(200).optional(),
  }),
  z.object({ id: z.uuid(), kind: z.literal('failed'), error: z.string().max(MAX_ERROR_LENGTH) }),
]);
type CommandReply = z.infer<typeof replySchema>;

/** What a command gave back: WhatsApp's id of a sent message. */
export type CommandResult = { messageId?: string };

/** The id of the message a sendText command sent. */
export function sentMessageId({ messageId }: CommandResult): { id: string } {
  if (!messageId) throw new Error('WhatsApp returned no message id');
  return { id: messageId };
}

export type OwnerChannel = {
  /**
   * Runs `command` on the instance that holds the account. Undefined when none does, or none said
   * so within `answerMs`; rejects with the owner's error, or when it has not finished within `doneMs`.
   */
  send(accountId: string, command: AccountCommand): Promise<CommandResult | undefined>;
  /** Stops answering; the commands still waiting are rejected. */
  close(): void;
};

function parse<T>(schema: z.ZodType<T>, text: string): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * This instance's end of the command channel. `run` runs a command for an account this instance
 * holds, and returns undefined, synchronously, for one it does not: then another instance answers.
 */
export function createOwnerChannel({
  shared,
  logger,
  answerMs,
  doneMs,
  run,
}: {
  shared: SharedState;
  logger: Logger;
  answerMs: number;
  doneMs: number;
  run: (accountId: string, command: AccountCommand) => Promise<CommandResult> | undefined;
}): OwnerChannel {
  const instanceId = randomUUID();
  const waiting = new Map<
    string,
    { settle: (reply: CommandReply | undefined) => void; accepted: () => void }
  >();

  function answer(request: CommandRequest, reply: CommandReply) {
    shared
      .publish(repliesTo(request.from), JSON.stringify(reply))
      .catch((error: unknown) =>
        logger.warn(
          { err: error, accountId: request.accountId },
          'whatsapp command answer not sent',
        ),
      );
  }

  const stopServing = shared.subscribe(COMMANDS, (text) => {
    const request = parse(requestSchema, text);
    if (!request) {
      logger.warn('whatsapp command ignored: malformed');
      return;
    }
    const running = run(request.accountId, request.command);
    if (!running) return;
    answer(request, { id: request.id, kind: 'accepted' });
    running.then(
      (result) => answer(request, { id: request.id, kind: 'done', ...result }),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        answer(request, {
          id: request.id,
          kind: 'failed',
          error: message.slice(0, MAX_ERROR_LENGTH),
        });
      },
    );
  });

  const stopListening = shared.subscribe(repliesTo(instanceId), (text) => {
    const reply = parse(replySchema, text);
    if (!reply) {
      logger.warn('whatsapp command answer ignored: malformed');
      return;
    }
    // Unknown: an answer that came after its command gave up waiting.
    const entry = waiting.get(reply.id);
    if (reply.kind === 'accepted') entry?.accepted();
    else entry?.settle(reply);
  });

  return {
    async send(accountId, command) {
      // Nobody holds it: not connected anywhere, said at once rather than after the wait.
      if (!(await shared.isLocked(accountLease(accountId)))) return undefined;
      // This instance's answers' subscription is in force before anyone can answer.
      await shared.ready();
      const id = randomUUID();
      return new Promise<CommandResult | undefined>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const wait = (ms: number, onTimeout: () => void) => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            waiting.delete(id);
            onTimeout();
          }, ms);
        };
        waiting.set(id, {
          accepted: () =>
            wait(doneMs, () =>
              reject(
                new Error(
                  `WhatsApp: the instance that holds account ${accountId} did not finish ${command.op} in time`,
                ),
              ),
            ),
          settle: (reply) => {
            clearTimeout(timer);
            waiting.delete(id);
            if (!reply) reject(new Error('WhatsApp transport closed'));
            else if (reply.kind === 'failed') reject(new Error(reply.error));
            else if (reply.kind === 'done')
              resolve(reply.messageId ? { messageId: reply.messageId } : {});
          },
        });
        wait(answerMs, () => resolve(undefined));
        const request: CommandRequest = { id, from: instanceId, accountId, command };
        shared.publish(COMMANDS, JSON.stringify(request)).catch((error: unknown) => {
          clearTimeout(timer);
          waiting.delete(id);
          reject(error);
        });
      });
    },

    close() {
      stopServing();
      stopListening();
      for (const entry of [...waiting.values()]) entry.settle(undefined);
    },
  };
}
