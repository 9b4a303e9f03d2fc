import {
  AI_PROVIDERS,
  AI_TIMEOUT_RANGE_MS,
  sameBaseUrl,
  type AiSettings,
  type AiSettingsInput,
  type AiTestResponse,
} from '@contrateia/shared';
import { useId, useState } from 'react';
import { useForm, useWatch, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import {
  useAiSettings,
  useSaveAiSettings,
  useTestAiSettings,
} from '@/features/admin/api/ai-settings';
import { TextField } from '@/components/ui/text-field';
import { SelectField } from '@/components/ui/form-fields';
import { failureText } from '@/features/admin/failure-text';
import { useWarnBeforeLeaving } from '@/hooks/use-warn-before-leaving';
import { useAdminFieldError } from '@/features/admin/hooks/use-admin-field-error';
import { aiSettingsResolver } from '@/features/admin/manage-validation';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/form-errors';
import '@/features/admin/admin-manage.css';

/** The form: the settings, and in `apiKey` a new key typed in ('' when none was). */
type AiFormValues = AiSettingsInput;

const FIELDS: Path<AiFormValues>[] = [
  'provider',
  'baseUrl',
  'model',
  'apiKey',
  'timeoutMs',
  'transcriptionModel',
  'vision',
];

const formValues = (settings: AiSettings): AiFormValues => ({
  provider: settings.provider,
  baseUrl: settings.baseUrl,
  model: settings.model,
  apiKey: '',
  timeoutMs: settings.timeoutMs,
  transcriptionModel: settings.transcriptionModel,
  vision: settings.vision,
});

/**
 * The AI tab: the language model the agents answer with. The API key is write-only: the page says
 * whether one is set, an empty key field keeps it, and "Remove key" sends '' with the next save or
 * test. The server sends a kept key only to the base URL it was saved with: once the address on
 * screen is another, the field says to type the key again.
 */
export function AiTab() {
  const { t } = useTranslation();
  const headingId = useId();
  const settings = useAiSettings();

  return (
    <section className="admin-manage" aria-labelledby={headingId}>
      <h2 id={headingId} className="admin-manage__title">
        {t('ai.title')}
      </h2>
      <p className="field__hint">{t('ai.intro')}</p>
      {settings.isPending ? (
        <p className="admin-manage__state">{t('ai.loading')}</p>
      ) : settings.isError ? (
        <div className="admin-manage__state">
          <p className="alert alert--error" role="alert">
            {failureText(settings.error, t('ai.loadFailed'))}
          </p>
          <Button variant="secondary" onClick={() => void settings.refetch()}>
            {t('ai.retry')}
          </Button>
        </div>
      ) : (
        <AiForm saved={settings.data} />
      )}
    </section>
  );
}

function AiForm({ saved }: { saved: AiSettings }) {
  const { t } = useTranslation();
  const formId = useId();
  const fieldError = useAdminFieldError();
  const save = useSaveAiSettings();
  const test = useTestAiSettings();
  const notice = useTimedMessage(SUCCESS_MESSAGE_MS);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [removeKey, setRemoveKey] = useState(false);
  const [testResult, setTestResult] = useState<
    { kind: 'answer'; answer: AiTestResponse } | { kind: 'failed'; text: string } | null
  >(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    clearErrors,
    reset,
    setValue,
    getFieldState,
    formState: { errors, isDirty },
  } = useForm<AiFormValues>({
    resolver: aiSettingsResolver,
    defaultValues: formValues(saved),
    reValidateMode: 'onSubmit',
  });
  useWarnBeforeLeaving(isDirty);
  const provider = useWatch({ control, name: 'provider' });
  const baseUrl = useWatch({ control, name: 'baseUrl' });
  /** Clears a field's error as soon as it is edited. */
  const clearError = (name: Path<AiFormValues>) => {
    if (getFieldState(name).error) clearErrors(name);
  };
  const field = (name: Path<AiFormValues>, options: Parameters<typeof register>[1] = {}) =>
    register(name, { onChange: () => clearError(name), ...options } as Parameters<
      typeof register
    >[1]);

  /** The request: the key only when one was typed or its removal asked for. */
  const toInput = ({ apiKey, ...values }: AiFormValues): AiSettingsInput => ({
    ...values,
    ...(removeKey ? { apiKey: '' } : apiKey ? { apiKey } : {}),
  });

  /** A refusal of the request: on its fields when the server names them, else `failed`. */
  const fieldErrorsOf = (error: unknown): boolean =>
    error instanceof ApiError && applyServerErrors(setError, error.errors, FIELDS);

  const showFailure = (error: unknown, failed: string) => {
    if (fieldErrorsOf(error)) return;
    setGeneralError(failureText(error, failed));
  };

  const handleSave = handleSubmit(async (values) => {
    setGeneralError(null);
    notice.clear();
    try {
      const answer = await save.mutateAsync(toInput(values));
      reset(formValues(answer));
      setRemoveKey(false);
      notice.show(t('ai.saved'));
    } catch (error) {
      showFailure(error, t('ai.saveFailed'));
    }
  });

  const handleTest = handleSubmit(async (values) => {
    setGeneralError(null);
    setTestResult(null);
    try {
      setTestResult({ kind: 'answer', answer: await test.mutateAsync(toInput(values)) });
    } catch (error) {
      // A refused field (the kept key for another address) is shown on it, as on saving.
      if (fieldErrorsOf(error)) return;
      setTestResult({ kind: 'failed', text: failureText(error, t('ai.test.failed')) });
    }
  });

  const keyState = removeKey
    ? 'removing'
    : !saved.apiKeySet
      ? 'none'
      : sameBaseUrl(baseUrl, saved.baseUrl)
        ? 'set'
        : 'retype';

  return (
    <form
      className="admin-form admin-ai-form"
      noValidate
      aria-label={t('ai.title')}
      onSubmit={(event) => void handleSave(event)}
    >
      <LiveMessage tone="success" message={notice.message} />
      <LiveMessage tone="error" message={generalError} />
      <SelectField
        id={`${formId}-provider`}
        label={t('ai.provider')}
        // As its default too: see the knowledge entries' language in agent-form.tsx.
        defaultValue={saved.provider}
        error={fieldError(errors.provider)}
        {...field('provider')}
      >
        {AI_PROVIDERS.map((name) => (
          <option key={name} value={name}>
            {t(`ai.providers.${name}`)}
          </option>
        ))}
      </SelectField>
      <p className="field__hint">{t(`ai.providerHints.${provider}`)}</p>

      {provider === 'openai' && (
        <>
          <TextField
            id={`${formId}-base-url`}
            label={t('ai.baseUrl')}
            hint={t('ai.baseUrlHint')}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            error={fieldError(errors.baseUrl)}
            {...field('baseUrl')}
          />
          <TextField
            id={`${formId}-model`}
            label={t('ai.model')}
            hint={t('ai.modelHint')}
            autoComplete="off"
            spellCheck={false}
            error={fieldError(errors.model)}
            {...field('model')}
          />
          <div className="admin-ai-key">
            <TextField
              id={`${formId}-api-key`}
              label={t('ai.apiKey')}
              // The server's refusal says what the retype hint says: once is enough.
              hint={
                keyState === 'retype' && errors.apiKey ? undefined : t(`ai.keyState.${keyState}`)
              }
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              error={fieldError(errors.apiKey)}
              {...field('apiKey', {
                onChange: () => {
                  clearError('apiKey');
                  // Typing a new key replaces the old one: no removal to ask for any more.
                  setRemoveKey(false);
                },
              })}
            />
            {removeKey ? (
              <Button variant="secondary" onClick={() => setRemoveKey(false)}>
                {t('ai.keepKey')}
              </Button>
            ) : (
              saved.apiKeySet && (
                <Button
                  variant="secondary"
                  className="admin-danger-text"
                  onClick={() => {
                    setValue('apiKey', '');
                    clearErrors('apiKey');
                    setRemoveKey(true);
                  }}
                >
                  {t('ai.removeKey')}
                </Button>
              )
            )}
          </div>
        </>
      )}

      {provider === 'openai' ? (
        <>
          <TextField
            id={`${formId}-transcription-model`}
            label={t('ai.transcriptionModel')}
            hint={t('ai.transcriptionModelHint')}
            autoComplete="off"
            spellCheck={false}
            error={fieldError(errors.transcriptionModel)}
            {...field('transcriptionModel')}
          />
          <div className="admin-switch">
            <input
              id={`${formId}-vision`}
              type="checkbox"
              role="switch"
              className="admin-switch__input"
              aria-describedby={`${formId}-vision-hint`}
              {...field('vision')}
            />
            <label htmlFor={`${formId}-vision`} className="admin-switch__label">
              {t('ai.vision')}
            </label>
            <p id={`${formId}-vision-hint`} className="admin-switch__hint field__hint">
              {fieldError(errors.vision) ?? t('ai.visionHint')}
            </p>
          </div>
        </>
      ) : (
        // Kept in the form as saved: the builtin engine leaves them for a provider that can.
        <p className="field__hint">{t('ai.mediaBuiltin')}</p>
      )}

      <TextField
        id={`${formId}-timeout`}
        label={t('ai.timeout')}
        hint={t('ai.timeoutHint', {
          min: AI_TIMEOUT_RANGE_MS.min,
          max: AI_TIMEOUT_RANGE_MS.max,
        })}
        type="number"
        inputMode="numeric"
        min={AI_TIMEOUT_RANGE_MS.min}
        max={AI_TIMEOUT_RANGE_MS.max}
        step={1}
        error={fieldError(errors.timeoutMs)}
        {...field('timeoutMs', { valueAsNumber: true })}
      />

      <div className="admin-form__actions">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('ai.saving') : t('ai.save')}
        </Button>
        <Button variant="secondary" disabled={test.isPending} onClick={() => void handleTest()}>
          {test.isPending ? t('ai.test.running') : t('ai.test.button')}
        </Button>
      </div>
      <div role="status" className="admin-ai-test">
        {testResult && <TestResult result={testResult} />}
      </div>
    </form>
  );
}

function TestResult({
  result,
}: {
  result: { kind: 'answer'; answer: AiTestResponse } | { kind: 'failed'; text: string };
}) {
  const { t } = useTranslation();
  if (result.kind === 'failed') return <p className="alert alert--error">{result.text}</p>;
  const { answer } = result;
  const heard = answer.transcription;
  return answer.ok ? (
    <>
      <div className="alert alert--success">
        <p>{t('ai.test.ok', { ms: answer.latencyMs })}</p>
        {answer.reply && (
          <p>
            {t('ai.test.reply')} <q>{answer.reply}</q>
          </p>
        )}
        {heard?.ok && <p>{t('ai.test.transcriptionOk', { ms: heard.latencyMs })}</p>}
      </div>
      {heard && !heard.ok && (
        <div className="alert alert--error">
          <p>{t('ai.test.transcriptionNotOk', { ms: heard.latencyMs })}</p>
          {heard.error && <p>{heard.error}</p>}
        </div>
      )}
    </>
  ) : (
    <div className="alert alert--error">
      <p>{t('ai.test.notOk', { ms: answer.latencyMs })}</p>
      {answer.error && <p>{answer.error}</p>}
    </div>
  );
}
