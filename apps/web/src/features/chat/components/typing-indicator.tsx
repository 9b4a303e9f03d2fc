import { useTranslation } from 'react-i18next';

/** Three bouncing dots for the eye; 'Agent is typing…' for screen readers. */
export function TypingIndicator() {
  const { t } = useTranslation();
  return (
    <div className="typing-indicator" role="status">
      <span className="typing-indicator__dot" aria-hidden="true" />
      <span className="typing-indicator__dot" aria-hidden="true" />
      <span className="typing-indicator__dot" aria-hidden="true" />
      <span className="visually-hidden">{t('agentChat.typing')}</span>
    </div>
  );
}
