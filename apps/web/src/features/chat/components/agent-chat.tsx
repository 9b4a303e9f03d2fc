import type { Agent } from '@contrateia/shared';
import { useTranslation } from 'react-i18next';
import { ChatPage } from '@/features/chat/components/chat-page';

/** The generic agent page: guia, assistente, administrador, indirect, custom agents. */
export function AgentChat({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  return <ChatPage agent={agent} listTitle={t('conversations.title')} />;
}
