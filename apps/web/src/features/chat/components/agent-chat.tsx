import type { Agent } from '@contrateia/shared';
import { ChatWindow } from '@/features/chat/components/chat-window';
import { useChat } from '@/features/chat/hooks/use-chat';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** The generic agent page (spec §2): guia, assistente, administrador, indirect. */
export function AgentChat({ agent }: { agent: Agent }) {
  useDocumentTitle(agent.displayName);
  const chat = useChat({
    agentName: agent.name,
    welcomeMessage: agent.configuration.welcomeMessage,
  });
  return (
    <div className="chat-layout">
      <ChatWindow agent={agent} chat={chat} />
    </div>
  );
}
