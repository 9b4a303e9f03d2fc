import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LoadingScreen } from '@/components/ui/loading-screen';

/** What an agent list shows before it has agents: a wait state, or the error with a retry. */
export function AgentListState({
  failed,
  retrying,
  onRetry,
}: {
  failed: boolean;
  retrying: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  if (!failed) return <LoadingScreen inline label={t('app.loading')} />;
  return (
    <div className="agent-list-error">
      <p role="alert" className="alert alert--error">
        {t('dashboard.agentsFailed')}
      </p>
      <Button variant="secondary" disabled={retrying} onClick={onRetry}>
        {t('agentChat.retry')}
      </Button>
    </div>
  );
}
