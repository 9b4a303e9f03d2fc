import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { agentsQueryRoot } from '@/features/agents/api/get-user-agents';
import { myAgentsTexts } from '@/features/my-agents/texts';
import { MyAgentsPage } from '@/features/my-agents/components/my-agents-page';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** The pages' texts, loaded with them (app/router.tsx withPageTexts). */
export const texts = myAgentsTexts;

/**
 * /my-agents: the account's own agents. A deleted one leaves the hired agents too (the
 * navigation, the dashboard), which are read again.
 */
export default function MyAgentsRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('ownAgents.list.title'));
  const queryClient = useQueryClient();
  return (
    <MyAgentsPage
      onDeleted={() => void queryClient.invalidateQueries({ queryKey: agentsQueryRoot })}
    />
  );
}
