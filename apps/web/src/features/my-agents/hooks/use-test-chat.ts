import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendTestMessage } from '@/features/my-agents/api/send-test-message';
import { errorMessage } from '@/lib/api-client';

export interface TestLine {
  id: number;
  sender: 'user' | 'bot' | 'error';
  text: string;
}

/**
 * A conversation with a saved agent beside its form: what was said, and the conversation the
 * server started with the first message, which the next ones continue until `restart`. A failed
 * message is a line of its own, with the server's reason when it gave one.
 */
export function useTestChat(agentName: string) {
  const { t } = useTranslation();
  const send = useSendTestMessage();
  const [lines, setLines] = useState<TestLine[]>([]);
  const conversationId = useRef<string | undefined>(undefined);
  const lastId = useRef(0);
  // Bumped by restart: a reply still on its way belongs to the conversation left behind.
  const generation = useRef(0);

  const add = (line: Omit<TestLine, 'id'>) => {
    lastId.current += 1;
    const id = lastId.current;
    setLines((old) => [...old, { id, ...line }]);
  };

  /** Sends `text` unless it is blank or a reply is pending; returns whether it was sent. */
  const sendLine = (text: string): boolean => {
    const message = text.trim();
    if (!message || send.isPending) return false;
    add({ sender: 'user', text: message });
    const current = generation.current;
    const continued = conversationId.current;
    send.mutate(
      { agentName, message, ...(continued ? { conversationId: continued } : {}) },
      {
        onSuccess: (answer) => {
          if (current !== generation.current) return;
          conversationId.current = answer.conversation.id;
          add({ sender: 'bot', text: answer.message.text });
        },
        onError: (error) => {
          if (current !== generation.current) return;
          const failed = t('ownAgents.test.failed');
          add({
            sender: 'error',
            text: errorMessage(error, { failed, network: t('ownAgents.test.network') }),
          });
        },
      },
    );
    return true;
  };

  const restart = () => {
    generation.current += 1;
    conversationId.current = undefined;
    send.reset();
    setLines([]);
  };

  return { lines, pending: send.isPending, send: sendLine, restart };
}
