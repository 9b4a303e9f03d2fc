import {
  AGENT_DESCRIPTION_MAX,
  AGENT_DISPLAY_NAME_MAX,
  AGENT_INSTRUCTIONS_MAX,
  AGENT_WELCOME_MAX,
  KNOWLEDGE_CONTENT_MAX,
  KNOWLEDGE_ENTRIES_MAX,
  KNOWLEDGE_TITLE_MAX,
  LANGUAGES,
  type AdminAgent,
  type AdminAgentResponse,
  type Language,
} from '@contrateia/shared';
import { useEffect, useId, useRef, useState } from 'react';
import {
  Controller,
  useFieldArray,
  useForm,
  useWatch,
  type Control,
  type FieldErrors,
  type Path,
  type UseFormRegister,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { useCreateAgent, useUpdateAgent } from '@/features/admin/api/save-agent';
import { DecimalField } from '@/components/ui/decimal-field';
import { TextField } from '@/components/ui/text-field';
import { SkillsFieldset } from '@/features/admin/components/agent-skills-fields';
import { SelectField, TextAreaField } from '@/components/ui/form-fields';
import { KeywordsField, keywordsError } from '@/features/admin/components/keywords-field';
import { failureText } from '@/features/admin/failure-text';
import { useWarnBeforeLeaving } from '@/hooks/use-warn-before-leaving';
import { useAdminFieldError } from '@/features/admin/hooks/use-admin-field-error';
import { useFoldOpenOnError } from '@/features/admin/hooks/use-fold-open-on-error';
import {
  createAgentResolver,
  editAgentResolver,
  type AgentFormOutput,
  type AgentFormValues,
} from '@/features/admin/manage-validation';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors, onFormFields } from '@/lib/form-errors';
import { LANGUAGE_NAMES } from '@/lib/language';

/** The model settings a new agent starts with: the seeded agents' own. */
const DEFAULT_MODEL = { model: null, temperature: 0.3, maxReplyLength: 2000 };

const texts = (pick: (language: Language) => string = () => '') =>
  Object.fromEntries(LANGUAGES.map((language) => [language, pick(language)])) as Record<
    Language,
    string
  >;

function newAgentValues(): AgentFormValues {
  return {
    name: '',
    displayName: texts(),
    description: texts(),
    isActive: true,
    configuration: {
      instructions: '',
      welcomeMessage: texts(),
      model: { ...DEFAULT_MODEL },
      knowledge: [],
      capabilities: { skills: [], fallback: 'notFound' },
    },
  };
}

/**
 * The agent as the form edits it: only the fields the (strict) input schema takes, so what the
 * server adds to its answer never makes a save fail.
 */
function agentValues(agent: AdminAgent): AgentFormValues {
  const { configuration } = agent;
  return {
    name: agent.name,
    displayName: texts((language) => agent.displayName[language]),
    description: texts((language) => agent.description[language]),
    isActive: agent.isActive,
    configuration: {
      instructions: configuration.instructions,
      welcomeMessage: texts((language) => configuration.welcomeMessage[language]),
      model: {
        model: configuration.model.model,
        temperature: configuration.model.temperature,
        maxReplyLength: configuration.model.maxReplyLength,
      },
      knowledge: configuration.knowledge.map((entry) => ({
        id: entry.id,
        language: entry.language,
        title: entry.title,
        content: entry.content,
        keywords: [...entry.keywords],
        ...(entry.link ? { link: entry.link } : {}),
      })),
      capabilities: {
        skills: [...configuration.capabilities.skills],
        fallback: configuration.capabilities.fallback,
      },
      ...(configuration.catalogue
        ? {
            catalogue: {
              currency: configuration.catalogue.currency,
              items: configuration.catalogue.items.map((item) => ({
                id: item.id,
                name: texts((language) => item.name[language]),
                description: texts((language) => item.description[language]),
                keywords: Object.fromEntries(
                  LANGUAGES.map((language) => [language, [...item.keywords[language]]]),
                ) as Record<Language, string[]>,
                price: item.price,
                unit: item.unit,
              })),
            },
          }
        : {}),
    },
  };
}

type KnowledgeField = 'language' | 'title' | 'content' | 'keywords' | 'link';
const KNOWLEDGE_FIELDS: KnowledgeField[] = ['language', 'title', 'content', 'keywords', 'link'];
const ITEM_TEXTS = ['name', 'description', 'keywords'] as const;

/** Every field of the form, as the server names them in `errors` (dotted paths). */
function fieldPaths(values: AgentFormValues): string[] {
  return [
    'name',
    'isActive',
    ...LANGUAGES.flatMap((l) => [`displayName.${l}`, `description.${l}`]),
    'configuration.instructions',
    ...LANGUAGES.map((l) => `configuration.welcomeMessage.${l}`),
    'configuration.model.model',
    'configuration.model.temperature',
    'configuration.model.maxReplyLength',
    ...values.configuration.knowledge.flatMap((_, i) =>
      KNOWLEDGE_FIELDS.map((field) => `configuration.knowledge.${i}.${field}`),
    ),
    'configuration.knowledge',
    'configuration.capabilities.skills',
    'configuration.capabilities.fallback',
    'configuration.catalogue.currency',
    ...(values.configuration.catalogue?.items ?? []).flatMap((_, i) => [
      `configuration.catalogue.items.${i}.price`,
      `configuration.catalogue.items.${i}.unit`,
      ...LANGUAGES.flatMap((l) =>
        ITEM_TEXTS.map((field) => `configuration.catalogue.items.${i}.${field}.${l}`),
      ),
    ]),
    'configuration.catalogue.items',
  ];
}

/** An entry with no link leaves it out (the server checks any link it is given). */
function withoutEmptyLinks<T extends { configuration: { knowledge: { link?: string }[] } }>(
  values: T,
): T {
  return {
    ...values,
    configuration: {
      ...values.configuration,
      knowledge: values.configuration.knowledge.map(({ link, ...entry }) =>
        link?.trim() ? { ...entry, link: link.trim() } : entry,
      ),
    },
  };
}

/**
 * Create an agent, or edit one: the name (a new agent's only; it is the agent's address), display
 * name, description and welcome message in each language, the instructions, the model settings and
 * the knowledge entries. Validated with the shared schema the server uses; the server's field
 * errors land on their fields.
 */
export function AgentForm({
  agent,
  onSaved,
  onCancel,
}: {
  /** The agent to edit; null creates one. */
  agent: AdminAgent | null;
  onSaved: (answer: AdminAgentResponse) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const fieldError = useAdminFieldError();
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);
  // Bumped to move focus to the first field in error once the entries holding errors are open.
  const [revealed, setRevealed] = useState(0);
  const editing = agent !== null;

  const {
    register,
    control,
    handleSubmit,
    setError,
    clearErrors,
    getValues,
    getFieldState,
    setValue,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<AgentFormValues, unknown, AgentFormOutput>({
    resolver: editing ? editAgentResolver : createAgentResolver,
    defaultValues: editing ? agentValues(agent) : newAgentValues(),
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  useWarnBeforeLeaving(isDirty);
  const knowledge = useFieldArray({ control, name: 'configuration.knowledge', keyName: 'key' });
  // Set by "Add entry": the new entry's title gets focus once it is on screen.
  const pendingAdd = useRef(false);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  useEffect(() => {
    if (revealed === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [revealed]);

  const last = knowledge.fields.at(-1);
  useEffect(() => {
    if (!pendingAdd.current || !last) return;
    pendingAdd.current = false;
    document.getElementById(`${formId}-k-${last.key}-title`)?.focus();
  }, [last, formId]);

  /**
   * Clears a field's error as soon as it is edited. Only when it has one: clearing re-renders the
   * whole form, and guia's holds hundreds of fields.
   */
  const clearError = (name: Path<AgentFormValues>) => {
    if (getFieldState(name).error) clearErrors(name);
  };
  const field = (name: Path<AgentFormValues>, options: Parameters<typeof register>[1] = {}) =>
    register(name, {
      ...options,
      onChange: () => clearError(name),
    } as Parameters<typeof register>[1]);

  const handleSave = handleSubmit(
    async ({ name, ...values }) => {
      setGeneralError(null);
      const input = withoutEmptyLinks(values);
      try {
        const answer = editing
          ? await update.mutateAsync({ id: agent.id, input })
          : await create.mutateAsync({ name, ...input });
        onSaved(answer);
      } catch (error) {
        const failed = t(
          editing ? 'agentManagement.form.updateFailed' : 'agentManagement.form.createFailed',
        );
        const paths = fieldPaths(getValues());
        const landed =
          error instanceof ApiError &&
          applyServerErrors(
            setError,
            onFormFields(error.errors, paths),
            paths as Path<AgentFormValues>[],
          );
        setGeneralError(landed ? failed : failureText(error, failed));
        if (landed) setRevealed((n) => n + 1);
      }
    },
    () => setRevealed((n) => n + 1),
  );

  const knowledgeErrors = errors.configuration?.knowledge;
  const knowledgeListError =
    knowledgeErrors?.root?.message ??
    (knowledgeErrors as { message?: string } | undefined)?.message;
  const title = editing
    ? t('agentManagement.form.editTitle', {
        name: agent.displayName[i18n.language as Language] || agent.name,
      })
    : t('agentManagement.form.createTitle');

  return (
    <form
      ref={formRef}
      className="admin-form admin-agent-form"
      noValidate
      aria-labelledby={`${formId}-title`}
      onSubmit={(event) => void handleSave(event)}
    >
      <h3 ref={headingRef} id={`${formId}-title`} className="admin-form__title" tabIndex={-1}>
        {title}
      </h3>
      <LiveMessage tone="error" message={generalError} />

      {editing ? (
        <p className="admin-agent-form__name">
          {t('agentManagement.form.nameReadOnly')} <code>{agent.name}</code>
        </p>
      ) : (
        <TextField
          id={`${formId}-name`}
          label={t('agentManagement.form.name')}
          hint={t('agentManagement.form.nameHint')}
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          error={fieldError(errors.name)}
          {...field('name')}
        />
      )}

      <label className="admin-check">
        <input type="checkbox" {...field('isActive')} />
        <span>{t('agentManagement.form.active')}</span>
      </label>

      {LANGUAGES.map((language) => (
        <fieldset key={language} className="admin-fieldset">
          <legend>{LANGUAGE_NAMES[language]}</legend>
          <TextField
            id={`${formId}-display-${language}`}
            label={t('agentManagement.form.displayName')}
            maxLength={AGENT_DISPLAY_NAME_MAX}
            autoComplete="off"
            error={fieldError(errors.displayName?.[language])}
            {...field(`displayName.${language}`)}
          />
          <TextAreaField
            id={`${formId}-description-${language}`}
            label={t('agentManagement.form.description')}
            rows={2}
            maxLength={AGENT_DESCRIPTION_MAX}
            error={fieldError(errors.description?.[language])}
            {...field(`description.${language}`)}
          />
          <TextAreaField
            id={`${formId}-welcome-${language}`}
            label={t('agentManagement.form.welcome')}
            hint={t('agentManagement.form.welcomeHint')}
            rows={2}
            maxLength={AGENT_WELCOME_MAX}
            error={fieldError(errors.configuration?.welcomeMessage?.[language])}
            {...field(`configuration.welcomeMessage.${language}`)}
          />
        </fieldset>
      ))}

      <TextAreaField
        id={`${formId}-instructions`}
        label={t('agentManagement.form.instructions')}
        hint={t('agentManagement.form.instructionsHint')}
        rows={6}
        maxLength={AGENT_INSTRUCTIONS_MAX}
        error={fieldError(errors.configuration?.instructions)}
        {...field('configuration.instructions')}
      />

      <fieldset className="admin-fieldset admin-fieldset--row">
        <legend>{t('agentManagement.form.model')}</legend>
        <TextField
          id={`${formId}-model`}
          label={t('agentManagement.form.modelName')}
          hint={t('agentManagement.form.modelNameHint')}
          autoComplete="off"
          spellCheck={false}
          error={fieldError(errors.configuration?.model?.model)}
          {...field('configuration.model.model', {
            setValueAs: (value: string | null) => (value?.trim() ? value.trim() : null),
          })}
        />
        {/* In the language's writing (0,3 in pt-BR), where a number input shows the browser's. */}
        <Controller
          control={control}
          name="configuration.model.temperature"
          render={({ field: temperature }) => (
            <DecimalField
              id={`${formId}-temperature`}
              label={t('agentManagement.form.temperature')}
              hint={t('agentManagement.form.temperatureHint')}
              error={fieldError(errors.configuration?.model?.temperature)}
              ref={temperature.ref}
              name={temperature.name}
              value={temperature.value}
              onBlur={temperature.onBlur}
              onChange={(value) => {
                temperature.onChange(value);
                clearError('configuration.model.temperature');
              }}
            />
          )}
        />
        <TextField
          id={`${formId}-max-reply`}
          label={t('agentManagement.form.maxReplyLength')}
          hint={t('agentManagement.form.maxReplyLengthHint')}
          type="number"
          inputMode="numeric"
          min={50}
          max={20000}
          step={1}
          error={fieldError(errors.configuration?.model?.maxReplyLength)}
          {...field('configuration.model.maxReplyLength', { valueAsNumber: true })}
        />
      </fieldset>

      <fieldset className="admin-fieldset">
        <legend>{t('agentManagement.knowledge.title')}</legend>
        <p className="field__hint">
          {t('agentManagement.knowledge.intro', { count: knowledge.fields.length })}
        </p>
        {knowledgeListError && (
          <p className="field__error" role="alert">
            {fieldError({ type: 'list', message: knowledgeListError })}
          </p>
        )}
        {knowledge.fields.length > 0 && (
          <ol className="admin-knowledge">
            {knowledge.fields.map((entry, index) => (
              <KnowledgeEntry
                key={entry.key}
                idPrefix={`${formId}-k-${entry.key}`}
                index={index}
                // New entries (no id yet) open at once; stored ones stay folded (guia has 81).
                startOpen={entry.id === undefined}
                control={control}
                register={register}
                clearError={clearError}
                errors={knowledgeErrors?.[index]}
                onRemove={() => {
                  knowledge.remove(index);
                  clearError('configuration.knowledge');
                }}
              />
            ))}
          </ol>
        )}
        <Button
          variant="secondary"
          className="admin-knowledge__add"
          disabled={knowledge.fields.length >= KNOWLEDGE_ENTRIES_MAX}
          onClick={() => {
            pendingAdd.current = true;
            knowledge.append(
              {
                language: (LANGUAGES as readonly string[]).includes(i18n.language)
                  ? (i18n.language as Language)
                  : 'pt-BR',
                title: '',
                content: '',
                keywords: [],
                // Given, even empty: a field left out would take the default of the entry that
                // had this index before (react-hook-form reads the form's default values).
                link: '',
              },
              { shouldFocus: false },
            );
          }}
        >
          {t('agentManagement.knowledge.add')}
        </Button>
      </fieldset>

      <SkillsFieldset
        idPrefix={formId}
        control={control}
        register={register}
        setValue={setValue}
        clearError={clearError}
        errors={errors.configuration}
      />

      <div className="admin-form__actions">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? t('agentManagement.form.saving') : t('agentManagement.form.save')}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t('agentManagement.form.cancel')}
        </Button>
      </div>
    </form>
  );
}

type EntryErrors = FieldErrors<AgentFormValues['configuration']['knowledge'][number]>;

/** One knowledge entry, folded to its language and title until opened. */
function KnowledgeEntry({
  idPrefix,
  index,
  startOpen,
  control,
  register,
  clearError,
  errors,
  onRemove,
}: {
  idPrefix: string;
  index: number;
  startOpen: boolean;
  control: Control<AgentFormValues, unknown, AgentFormOutput>;
  register: UseFormRegister<AgentFormValues>;
  clearError: (name: Path<AgentFormValues>) => void;
  errors: EntryErrors | undefined;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const base = `configuration.knowledge.${index}` as const;
  const [language, title] = useWatch({ control, name: [`${base}.language`, `${base}.title`] });
  // The select's first value as its default too: react-hook-form tells a select the user changed
  // before the form was ready by its options' default selection, which this makes agree.
  const [initialLanguage] = useState(language);
  const { open, setOpen, hasError } = useFoldOpenOnError(errors, startOpen);

  const field = (name: `${typeof base}.${'language' | 'title' | 'content' | 'link'}`) =>
    register(name, { onChange: () => clearError(name) });

  return (
    <li className="admin-knowledge__item">
      <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="admin-knowledge__summary">
          <span className="admin-knowledge__language">{language}</span>{' '}
          <span>{title.trim() || t('agentManagement.knowledge.untitled')}</span>
          {hasError && (
            <span className="admin-knowledge__flag">
              {t('agentManagement.knowledge.hasErrors')}
            </span>
          )}
        </summary>
        <div className="admin-knowledge__body">
          <SelectField
            id={`${idPrefix}-language`}
            label={t('agentManagement.knowledge.language')}
            defaultValue={initialLanguage}
            error={fieldError(errors?.language)}
            {...field(`${base}.language`)}
          >
            {LANGUAGES.map((option) => (
              <option key={option} value={option}>
                {LANGUAGE_NAMES[option]}
              </option>
            ))}
          </SelectField>
          <TextField
            id={`${idPrefix}-title`}
            label={t('agentManagement.knowledge.entryTitle')}
            maxLength={KNOWLEDGE_TITLE_MAX}
            autoComplete="off"
            error={fieldError(errors?.title)}
            {...field(`${base}.title`)}
          />
          <TextAreaField
            id={`${idPrefix}-content`}
            label={t('agentManagement.knowledge.content')}
            rows={4}
            maxLength={KNOWLEDGE_CONTENT_MAX}
            error={fieldError(errors?.content)}
            {...field(`${base}.content`)}
          />
          <KeywordsField
            id={`${idPrefix}-keywords`}
            name={`${base}.keywords`}
            control={control}
            clearError={clearError}
            error={fieldError(keywordsError(errors?.keywords))}
          />
          <TextField
            id={`${idPrefix}-link`}
            label={t('agentManagement.knowledge.link')}
            hint={t('agentManagement.knowledge.linkHint')}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            error={fieldError(errors?.link)}
            {...field(`${base}.link`)}
          />
          <Button variant="secondary" className="admin-knowledge__remove" onClick={onRemove}>
            {t('agentManagement.knowledge.remove', {
              title: title.trim() || t('agentManagement.knowledge.untitled'),
            })}
          </Button>
        </div>
      </details>
    </li>
  );
}
