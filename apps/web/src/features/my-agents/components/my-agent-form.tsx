import type { MyAgent, MyAgentReply } from '@contrateia/shared';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { FormProvider, useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { useCreateMyAgent, useUpdateMyAgent } from '@/features/my-agents/api/save-my-agent';
import { BusinessSection } from '@/features/my-agents/components/business-section';
import { CatalogueSection } from '@/features/my-agents/components/catalogue-section';
import { DocumentsSection } from '@/features/my-agents/components/documents-section';
import { FaqSection } from '@/features/my-agents/components/faq-section';
import {
  SECTIONS,
  sectionId,
  type SectionName,
} from '@/features/my-agents/components/form-section';
import { HoursSection } from '@/features/my-agents/components/hours-section';
import { InstructionsSection } from '@/features/my-agents/components/instructions-section';
import { emptyFormValues, fieldPaths, formValuesOf } from '@/features/my-agents/form-values';
import {
  myAgentResolver,
  type MyAgentFormOutput,
  type MyAgentFormValues,
} from '@/features/my-agents/validation';
import { useWarnBeforeLeaving } from '@/hooks/use-warn-before-leaving';
import { ApiError, errorMessage } from '@/lib/api-client';
import { withReason } from '@/lib/failure-text';
import { applyServerErrors, onFormFields } from '@/lib/form-errors';

/** The section each top-level field of the form is in, to mark the sections holding errors. */
const SECTION_OF: Record<string, SectionName> = {
  displayName: 'instructions',
  description: 'instructions',
  instructions: 'instructions',
  catalogue: 'catalogue',
  faq: 'faq',
};
const BUSINESS_SECTION_OF: Record<string, SectionName> = {
  hours: 'hours',
  closedDates: 'hours',
  handoffMessage: 'instructions',
};

/**
 * An agent of the account's own, new (`agent` null) or saved: the business, its hours, catalogue,
 * frequent questions and documents (a saved agent's, sent on their own), and the agent's name and
 * instructions, in sections a nav at the top leads to. Validated with the shared schema the server uses; the server's field errors land on
 * their fields. A saved agent stays on the page with what the server stored; a new one is handed
 * to `onCreated`.
 */
export function MyAgentForm({
  agent,
  notice: initialNotice = null,
  onCreated,
  onSaved,
  onDirtyChange,
}: {
  agent: MyAgent | null;
  /** A message to show at first (the creation's, handed over by the page that created it). */
  notice?: string | null;
  /** A new agent, created: the form's page moves to the agent's. */
  onCreated?: (answer: MyAgentReply) => void;
  onSaved?: (answer: MyAgentReply) => void;
  /** Told whether the form holds changes not yet saved. */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const create = useCreateMyAgent();
  const update = useUpdateMyAgent();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(initialNotice);

  const form = useForm<MyAgentFormValues, unknown, MyAgentFormOutput>({
    resolver: myAgentResolver,
    defaultValues: agent ? formValuesOf(agent) : emptyFormValues(),
    shouldFocusError: false,
  });
  const {
    handleSubmit,
    reset,
    setError,
    getValues,
    formState: { errors, isDirty, isSubmitting, submitCount },
  } = form;
  useWarnBeforeLeaving(isDirty);
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);

  // An edit after a save: "saved" no longer describes what is on screen (adjusting state while
  // rendering, once per edit).
  if (isDirty && notice) setNotice(null);

  // Once a save ends (the form's errors, its own or the server's, are on screen by then), focus
  // goes to the first field in error, if any: react-hook-form cannot find those of the rows
  // edited in another shape than the request's.
  useEffect(() => {
    if (submitCount === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [submitCount]);

  const handleSave = handleSubmit(
    async (input) => {
      setGeneralError(null);
      setNotice(null);
      try {
        if (agent) {
          const answer = await update.mutateAsync({ id: agent.id, input });
          reset(formValuesOf(answer.agent));
          setNotice(answer.message);
          onSaved?.(answer);
        } else {
          onCreated?.(await create.mutateAsync(input));
        }
      } catch (error) {
        const paths = fieldPaths(getValues());
        const landed =
          error instanceof ApiError &&
          applyServerErrors(
            setError,
            onFormFields(error.errors, paths),
            paths as Path<MyAgentFormValues>[],
          );
        if (landed) {
          setGeneralError(t('ownAgents.form.fixFields'));
        } else {
          const failed = agent ? t('ownAgents.form.saveFailed') : t('ownAgents.form.createFailed');
          setGeneralError(
            error instanceof ApiError
              ? withReason(failed, error.message)
              : errorMessage(error, { failed, network: t('ownAgents.form.network') }),
          );
        }
      }
    },
    () => {
      setNotice(null);
      setGeneralError(t('ownAgents.form.fixFields'));
    },
  );

  const withErrors = new Set<SectionName>();
  for (const key of Object.keys(errors)) {
    if (key === 'business') {
      for (const field of Object.keys(errors.business ?? {})) {
        withErrors.add(BUSINESS_SECTION_OF[field] ?? 'business');
      }
    } else if (SECTION_OF[key]) {
      withErrors.add(SECTION_OF[key]);
    }
  }

  const handleJump = (event: MouseEvent<HTMLAnchorElement>, name: SectionName) => {
    // Focus, not only scroll: the keyboard continues from the section's heading.
    event.preventDefault();
    const heading = document.getElementById(`${sectionId(name)}-title`);
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  };

  return (
    <FormProvider {...form}>
      <form
        ref={formRef}
        className="my-agent-form"
        noValidate
        aria-label={t('ownAgents.form.label')}
        onSubmit={(event) => void handleSave(event)}
      >
        <nav className="my-agent-form__nav" aria-label={t('ownAgents.form.sections')}>
          <ol>
            {SECTIONS.map((name) => (
              <li key={name}>
                <a href={`#${sectionId(name)}`} onClick={(event) => handleJump(event, name)}>
                  {t(`ownAgents.${name}.title`)}
                  {withErrors.has(name) && (
                    <span className="my-agent-form__flag">
                      {' '}
                      · {t('ownAgents.form.sectionHasErrors')}
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <BusinessSection />
        <HoursSection />
        <CatalogueSection />
        <FaqSection />
        <DocumentsSection agentId={agent?.id ?? null} />
        <InstructionsSection editing={agent !== null} />

        <div className="my-agent-form__actions">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting
              ? t('ownAgents.form.saving')
              : agent
                ? t('ownAgents.form.save')
                : t('ownAgents.form.create')}
          </Button>
          <div className="my-agent-form__status">
            <LiveMessage tone="error" message={generalError} />
            <LiveMessage tone="success" message={notice} />
            {isDirty && !isSubmitting && (
              <p className="my-agent-form__unsaved">{t('ownAgents.form.unsaved')}</p>
            )}
          </div>
        </div>
      </form>
    </FormProvider>
  );
}
