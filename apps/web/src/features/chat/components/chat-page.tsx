import type { Agent } from '@contrateia/shared';
import { useRef, type ReactNode } from 'react';
import { ChatWindow } from '@/features/chat/components/chat-window';
import {
  ConversationDrawer,
  ConversationSidebar,
  useSideBySide,
} from '@/features/chat/components/conversation-sidebar';
import { useChat, type ChatController } from '@/features/chat/hooks/use-chat';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * An agent's page: the chat and the list of the user's conversations with the agent, beside it on
 * wide screens and in a drawer on a phone. `actions` and `notice` add to the chat's header
 * (auxtrat's Sync Agent); `children` renders after it (its dialog).
 */
export function ChatPage({
  agent,
  listTitle,
  othersOnly = false,
  actions,
  notice,
  children,
}: {
  agent: Agent;
  listTitle: string;
  /** The list leaves out the conversation on screen (auxtrat's); others mark it. */
  othersOnly?: boolean;
  actions?: (chat: ChatController) => ReactNode;
  notice?: (chat: ChatController) => ReactNode;
  children?: (chat: ChatController) => ReactNode;
}) {
  useDocumentTitle(agent.displayName);
  const chat = useChat({
    agentName: agent.name,
    welcomeMessage: agent.configuration.welcomeMessage,
  });
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const sideBySide = useSideBySide();

  // The chosen conversation is now the one on screen: focus goes to the message box (choosing the
  // one already shown only does that).
  const handleOpen = (id: string) => {
    if (id !== chat.conversationId) chat.open(id);
    inputRef.current?.focus();
  };
  // The conversation on screen was deleted: the page starts afresh.
  const handleDeleted = (id: string) => {
    if (id === chat.conversationId) chat.clear();
  };
  const list = {
    agentName: agent.name,
    title: listTitle,
    currentId: chat.conversationId,
    othersOnly,
    onOpen: handleOpen,
    onDeleted: handleDeleted,
  };

  return (
    <div className="chat-layout chat-layout--with-sidebar">
      <ChatWindow
        agent={agent}
        chat={chat}
        inputRef={inputRef}
        actions={
          <>
            {actions?.(chat)}
            {!sideBySide && <ConversationDrawer {...list} />}
          </>
        }
        notice={notice?.(chat)}
      />
      {sideBySide && <ConversationSidebar {...list} />}
      {children?.(chat)}
    </div>
  );
}
