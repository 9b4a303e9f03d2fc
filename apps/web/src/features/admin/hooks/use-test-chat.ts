import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendTestMessage } from '@/features/admin/api/chat-test';
import { ApiError } from '@/lib/api-client';

export interface TestChatMessage {
  id: number;
  sender: 'user' | 'bot' | 'error';
  text: string;
  /** For an error: the server's reason, when it gave one. */
  reason?: string;
}

/**
 * A test conversation with one agent (POST /api/admin/chat/test): the history on screen, and the
 * conversation id the server gave, so each message continues the same conversation. A failed call
 * is a line in the history: 'Error: Failed to get response from agent' when the server answered
 * with an error, 'Error: Failed to send message' when no answer came.
 */
export function useTestChat(agentName: string) {
  const { t } = useTranslation();
  const send = useSendTestMessage();
  const [messages, setMessages] = useState<TestChatMessage[]>([]);
  const [conversationId, setConversationId] = useState<string | undefined>(undefined);
  const nextId = useRef(0);
  // The conversation a reply belongs to: a reply that arrives after "New conversation" is dropped.
  const generation = useRef(0);

  const add = useCallback((message: Omit<TestChatMessage, 'id'>) => {
    nextId.current += 1;
    const id = nextId.current;
    setMessages((old) => [...old, { id, ...message }]);
  }, []);

  const sendMessage = (text: string): boolean => {
    const message = text.trim();
    if (!message || send.isPending) return false;
    add({ sender: 'user', text: message });
    const current = generation.current;
    send.mutate(
      { message, agentName, ...(conversationId ? { conversationId } : {}) },
      {
        onSuccess: (answer) => {
          if (current !== generation.current) return;
          setConversationId(answer.conversation.id);
          add({ sender: 'bot', text: answer.message });
        },
        onError: (error) => {
          if (current !== generation.current) return;
          if (error instanceof ApiError) {
            add({
              sender: 'error',
              text: t('agentManagement.testChat.noResponse'),
              ...(error.message ? { reason: error.message } : {}),
            });
          } else {
            add({ sender: 'error', text: t('agentManagement.testChat.sendFailed') });
          }
        },
      },
    );
    return true;
  };

  const restart = () => {
    generation.current += 1;
    send.reset();
    setMessages([]);
    setConversationId(undefined);
  };

  return {
    messages,
    conversationId,
    pending: send.isPending,
    send: sendMessage,
    restart,
  };
}
