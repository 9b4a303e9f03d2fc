import type { ChatStreamEvent, SendMessageInput, SendMessageResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { conversationsQueryRoot } from '@/features/chat/api/get-conversations';
import { ApiError, apiStream, NetworkError } from '@/lib/api-client';

/** The stream ended with an `error` event: the reply failed and nothing was stored. */
export class ChatStreamError extends Error {
  override readonly name = 'ChatStreamError';
}

export interface SendMessageOptions<Input = SendMessageInput> {
  input: Input;
  /** Called with each piece of the reply's text as the engine produces it. */
  onDelta: (text: string) => void;
  /** Called with the conversation's id before the reply's text (a new one's id too). */
  onStart?: (conversationId: string) => void;
  signal?: AbortSignal;
}

function parseData<T>(data: string): T {
  try {
    return JSON.parse(data) as T;
  } catch (cause) {
    throw new NetworkError('Malformed event from the server', { cause });
  }
}

/**
 * Sends a chat message and streams the reply: `POST /api/chat/message` with
 * `Accept: text/event-stream`; `delta` events go to `onDelta`, `done` resolves with the stored
 * message and the conversation id. Errors before the stream starts throw ApiError; an `error` event
 * throws ChatStreamError; a stream cut short throws NetworkError.
 */
export function sendMessage(options: SendMessageOptions): Promise<SendMessageResponse> {
  return streamChat('/chat/message', options);
}

/** Posts `input` to a chat endpoint that streams its reply (`/chat/message`, `/chat`), as above. */
export async function streamChat<Input>(
  path: string,
  { input, onDelta, onStart, signal }: SendMessageOptions<Input>,
): Promise<SendMessageResponse> {
  const response = await apiStream(path, { method: 'POST', body: input, signal });

  // A server (or proxy) that answers in one piece instead of streaming.
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.startsWith('text/event-stream')) {
    const result = parseData<SendMessageResponse>(await response.text());
    onDelta(result.message.text);
    return result;
  }
  if (!response.body) throw new NetworkError('The reply has no body');

  const events = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  try {
    for (;;) {
      let next: ReadableStreamReadResult<{ event?: string; data: string }>;
      try {
        next = await reader.read();
      } catch (cause) {
        if (signal?.aborted) throw cause;
        throw new NetworkError('The reply was interrupted', { cause });
      }
      if (next.done) break;
      const { event, data } = next.value;
      if (event === 'start') {
        onStart?.(
          parseData<Extract<ChatStreamEvent, { event: 'start' }>['data']>(data).conversation.id,
        );
      } else if (event === 'delta') {
        onDelta(parseData<Extract<ChatStreamEvent, { event: 'delta' }>['data']>(data).text);
      } else if (event === 'done') {
        return parseData<SendMessageResponse>(data);
      } else if (event === 'error') {
        const { message } = parseData<Extract<ChatStreamEvent, { event: 'error' }>['data']>(data);
        throw new ChatStreamError(message);
      }
      // Any other event (a keep-alive comment never gets here) is not ours to act on.
    }
  } finally {
    reader.releaseLock();
    // Stops the download when we leave early (abort, error event, malformed data).
    void events.cancel().catch(() => {});
  }
  throw new NetworkError('The reply ended before it was complete');
}

/** The statuses whose server message says what to do (field errors, one reply at a time, rate limit). */
const TELLING_STATUSES = new Set([400, 409, 429]);

/**
 * The text of a failed chat reply: the server's message for 400 (its field message first), 409 and
 * 429, else the caller's generic error.
 */
export function chatErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && TELLING_STATUSES.has(error.status)) {
    return error.errors?.message || error.message || fallback;
  }
  return fallback;
}

export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    // New conversation or one more message: the lists' counts changed either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationsQueryRoot }),
  });
}
