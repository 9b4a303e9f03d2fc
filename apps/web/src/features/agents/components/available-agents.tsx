import type { Agent } from '@contrateia/shared';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { useAvailableAgents } from '@/features/agents/api/get-available-agents';
import { useHireAgent } from '@/features/agents/api/hire-agent';
import { AgentList } from '@/features/agents/components/agent-list';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';
import { errorMessage } from '@/lib/api-client';
import '@/features/agents/agents.css';

/** Dashboard: Available Agents with Hire buttons; a hired agent moves to the hired list. */
export function AvailableAgents({ onHired }: { onHired?: (agent: Agent) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const availableAgents = useAvailableAgents();
  const hire = useHireAgent();
  const success = useTimedMessage(SUCCESS_MESSAGE_MS);

  const hiringId = hire.isPending ? hire.variables.agentId : null;

  const handleHire = (agent: Agent) => {
    // aria-disabled rather than disabled while busy, so the focused button keeps focus.
    if (hire.isPending) return;
    success.clear();
    hire.mutate(
      { agentId: agent.id },
      {
        onSuccess: ({ message, agent: hired }) => {
          success.show(message);
          onHired?.(hired);
          // The card and its focused button are gone; keep the keyboard user in this section.
          headingRef.current?.focus();
        },
      },
    );
  };

  return (
    <section className="card agent-section" aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className="card__title">
        {t('dashboard.availableTitle')}
      </h2>
      <LiveMessage tone="success" message={success.message} />
      <LiveMessage
        tone="error"
        message={
          hire.error ? errorMessage(hire.error, { failed: t('dashboard.hireFailed') }) : null
        }
      />
      <AgentList
        query={availableAgents}
        emptyText={t('dashboard.allHired')}
        action={(agent) => {
          const busy = hiringId === agent.id;
          return (
            <Button
              className="agent-card__button"
              aria-disabled={hire.isPending || undefined}
              aria-busy={busy || undefined}
              onClick={() => handleHire(agent)}
            >
              {busy ? t('dashboard.hiring') : t('dashboard.hire')}
              <span className="visually-hidden"> · {agent.displayName}</span>
            </Button>
          );
        }}
      />
    </section>
  );
}
