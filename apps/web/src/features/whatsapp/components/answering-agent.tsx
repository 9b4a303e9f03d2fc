import type { WhatsAppAgent } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useWhatsAppAgents } from '@/features/whatsapp/api/get-agents';
import { useUpdateSettings } from '@/features/whatsapp/api/update-settings';
import { errorMessage } from '@/lib/api-client';

/**
 * "Quem atende seus clientes?": the agent that answers the contacts (those not given one of
 * their own), chosen among the account's own agents first, then its other hired agents. Until one
 * is chosen nobody answers: the page says so, with the choice at hand. The server holds the
 * choice; this only reflects it.
 */
export function AnsweringAgent({ defaultAgentId }: { defaultAgentId: string | null }) {
  const { t } = useTranslation();
  const agents = useWhatsAppAgents();
  const settings = useUpdateSettings();
  const selectId = useId();
  const titleId = useId();
  const hintId = useId();
  const list = agents.data ?? [];
  const own = list.filter((a) => a.own);
  const hired = list.filter((a) => !a.own);
  // What was asked shows at once; the server's answer (or its refusal) settles it.
  const chosen = settings.isPending ? (settings.variables.defaultAgentId ?? null) : defaultAgentId;
  const nobody = chosen === null;

  const options = (group: WhatsAppAgent[]) =>
    group.map((agent) => (
      <option key={agent.id} value={agent.id}>
        {agent.displayName}
      </option>
    ));

  return (
    <section className="wa-answering" aria-labelledby={titleId}>
      <label id={titleId} htmlFor={selectId} className="wa-answering__title">
        {t('whatsapp.answering.title')}
      </label>
      {agents.isError ? (
        <p className="alert alert--error" role="alert">
          {t('whatsapp.answering.loadFailed')}
        </p>
      ) : (
        <select
          id={selectId}
          className="wa-answering__select"
          value={chosen ?? ''}
          disabled={agents.isPending || settings.isPending}
          aria-describedby={nobody ? hintId : undefined}
          onChange={(event) => settings.mutate({ defaultAgentId: event.target.value || null })}
        >
          <option value="">{t('whatsapp.answering.nobody')}</option>
          {own.length > 0 && (
            <optgroup label={t('whatsapp.answering.own')}>{options(own)}</optgroup>
          )}
          {hired.length > 0 && (
            <optgroup label={t('whatsapp.answering.hired')}>{options(hired)}</optgroup>
          )}
        </select>
      )}
      {nobody && (
        <p id={hintId} className="wa-answering__hint">
          {t('whatsapp.answering.nobodyHint')}{' '}
          {own.length === 0 && !agents.isPending && (
            <Link to="/my-agents/new">{t('whatsapp.answering.create')}</Link>
          )}
        </p>
      )}
      <div role="alert">
        {settings.isError && (
          <p className="alert alert--error">
            {errorMessage(settings.error, { failed: t('whatsapp.answering.failed') })}
          </p>
        )}
      </div>
    </section>
  );
}
