import {
  AGENT_FALLBACKS,
  AGENT_SKILLS,
  CATALOGUE_ITEMS_MAX,
  KNOWLEDGE_CONTENT_MAX,
  KNOWLEDGE_TITLE_MAX,
  LANGUAGES,
  PRICE_UNITS,
  type AgentSkill,
} from '@contrateia/shared';
import { useEffect, useRef, useState } from 'react';
import {
  useController,
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type Path,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { SelectField, TextAreaField } from '@/components/ui/form-fields';
import { KeywordsField } from '@/features/admin/components/keywords-field';
import { useAdminFieldError } from '@/features/admin/hooks/use-admin-field-error';
import { useFoldOpenOnError } from '@/features/admin/hooks/use-fold-open-on-error';
import type { AgentFormOutput, AgentFormValues } from '@/features/admin/manage-validation';
import { LANGUAGE_NAMES } from '@/lib/language';

type FormControl = Control<AgentFormValues, unknown, AgentFormOutput>;
type ConfigurationErrors = FieldErrors<AgentFormValues>['configuration'];

/** A catalogue's new item: its id is made here, once (the engine and the audit tell items apart by it). */
function newItem() {
  const texts = () =>
    Object.fromEntries(LANGUAGES.map((language) => [language, ''])) as Record<
      (typeof LANGUAGES)[number],
      string
    >;
  return {
    id: `item-${crypto.randomUUID().slice(0, 8)}`,
    name: texts(),
    description: texts(),
    keywords: Object.fromEntries(LANGUAGES.map((language) => [language, []])) as unknown as Record<
      (typeof LANGUAGES)[number],
      string[]
    >,
    price: 0,
    unit: 'once' as const,
  };
}

/** A price in the catalogue's currency; as a plain number while the currency is not a valid code. */
function formatPrice(price: number, currency: string | undefined, locale: string): string {
  try {
    if (currency && /^[A-Z]{3}$/.test(currency)) {
      return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(price);
    }
  } catch {
    // A code Intl does not know: written as a number.
  }
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(price);
}

/**
 * What the agent can do besides answering from its knowledge (the seeded agents' skills and
 * auxtrat's catalogue, the business's own items and prices): the skills, what it says when nothing
 * answers, and the catalogue the `catalogue` skill sells from.
 */
export function SkillsFieldset({
  idPrefix,
  control,
  register,
  setValue,
  clearError,
  errors,
}: {
  idPrefix: string;
  control: FormControl;
  register: UseFormRegister<AgentFormValues>;
  setValue: UseFormSetValue<AgentFormValues>;
  clearError: (name: Path<AgentFormValues>) => void;
  errors: ConfigurationErrors;
}) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const { field: skills } = useController({ control, name: 'configuration.capabilities.skills' });
  const catalogue = useWatch({ control, name: 'configuration.catalogue' });
  const chosen = (skills.value ?? []) as AgentSkill[];

  const toggle = (skill: AgentSkill, on: boolean) => {
    // The order is the order the engine tries them in: a new one goes last.
    skills.onChange(on ? [...chosen, skill] : chosen.filter((s) => s !== skill));
    clearError('configuration.capabilities.skills');
    // Selling needs something to sell: the catalogue opens, in reais until told otherwise.
    if (skill === 'catalogue' && on && !catalogue) {
      setValue('configuration.catalogue', { currency: 'BRL', items: [] });
    }
    if (skill === 'catalogue' && !on && catalogue && catalogue.items.length === 0) {
      setValue('configuration.catalogue', undefined);
    }
  };

  return (
    <>
      <fieldset className="admin-fieldset" aria-describedby={`${idPrefix}-skills-hint`}>
        <legend>{t('agentManagement.skills.title')}</legend>
        <p id={`${idPrefix}-skills-hint`} className="field__hint">
          {t('agentManagement.skills.intro')}
        </p>
        {errors?.capabilities?.skills && (
          <p className="field__error" role="alert">
            {fieldError(errors.capabilities.skills as { message?: string; type: string })}
          </p>
        )}
        <ul className="admin-skills">
          {AGENT_SKILLS.map((skill) => (
            <li key={skill}>
              <label className="admin-check admin-skills__option">
                <input
                  type="checkbox"
                  checked={chosen.includes(skill)}
                  aria-describedby={`${idPrefix}-skill-${skill}`}
                  onChange={(event) => toggle(skill, event.target.checked)}
                />
                <span>
                  <span className="admin-skills__name">
                    {t(`agentManagement.skills.names.${skill}`)}
                  </span>
                  <span id={`${idPrefix}-skill-${skill}`} className="field__hint">
                    {t(`agentManagement.skills.descriptions.${skill}`)}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        <fieldset className="admin-skills__fallback" aria-describedby={`${idPrefix}-fallback-hint`}>
          <legend className="field__label">{t('agentManagement.skills.fallback')}</legend>
          <p id={`${idPrefix}-fallback-hint`} className="field__hint">
            {t('agentManagement.skills.fallbackHint')}
          </p>
          {AGENT_FALLBACKS.map((option) => (
            <label key={option} className="admin-check admin-skills__option">
              <input
                type="radio"
                value={option}
                {...register('configuration.capabilities.fallback', {
                  onChange: () => clearError('configuration.capabilities.fallback'),
                })}
              />
              <span>{t(`agentManagement.skills.fallbacks.${option}`)}</span>
            </label>
          ))}
          {errors?.capabilities?.fallback && (
            <p className="field__error" role="alert">
              {fieldError(errors.capabilities.fallback)}
            </p>
          )}
        </fieldset>
      </fieldset>
      {catalogue && (
        <CatalogueFieldset
          idPrefix={idPrefix}
          control={control}
          register={register}
          clearError={clearError}
          errors={errors?.catalogue}
          selling={chosen.includes('catalogue')}
        />
      )}
    </>
  );
}

type CatalogueErrors = NonNullable<ConfigurationErrors>['catalogue'];

/** The items and prices the agent sells, each folded to its name and price until opened. */
function CatalogueFieldset({
  idPrefix,
  control,
  register,
  clearError,
  errors,
  selling,
}: {
  idPrefix: string;
  control: FormControl;
  register: UseFormRegister<AgentFormValues>;
  clearError: (name: Path<AgentFormValues>) => void;
  errors: CatalogueErrors;
  selling: boolean;
}) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const items = useFieldArray({ control, name: 'configuration.catalogue.items', keyName: 'key' });
  const pendingAdd = useRef(false);
  const last = items.fields.at(-1);
  useEffect(() => {
    if (!pendingAdd.current || !last) return;
    pendingAdd.current = false;
    document.getElementById(`${idPrefix}-c-${last.key}-name-${LANGUAGES[0]}`)?.focus();
  }, [last, idPrefix]);

  const listError =
    errors?.items?.root?.message ?? (errors?.items as { message?: string } | undefined)?.message;

  return (
    <fieldset className="admin-fieldset">
      <legend>{t('agentManagement.catalogue.title')}</legend>
      <p className="field__hint">
        {t(selling ? 'agentManagement.catalogue.intro' : 'agentManagement.catalogue.notSelling', {
          count: items.fields.length,
        })}
      </p>
      <TextField
        id={`${idPrefix}-currency`}
        label={t('agentManagement.catalogue.currency')}
        hint={t('agentManagement.catalogue.currencyHint')}
        autoComplete="off"
        spellCheck={false}
        maxLength={3}
        className="admin-catalogue__currency"
        error={fieldError(errors?.currency)}
        {...register('configuration.catalogue.currency', {
          setValueAs: (value: string) => value.trim().toUpperCase(),
          onChange: () => clearError('configuration.catalogue.currency'),
        })}
      />
      {listError && (
        <p className="field__error" role="alert">
          {fieldError({ type: 'list', message: listError })}
        </p>
      )}
      {items.fields.length > 0 && (
        <ol className="admin-knowledge">
          {items.fields.map((item, index) => (
            <CatalogueItem
              key={item.key}
              idPrefix={`${idPrefix}-c-${item.key}`}
              index={index}
              startOpen={pendingAdd.current || items.fields.length === 1}
              control={control}
              register={register}
              clearError={clearError}
              errors={errors?.items?.[index]}
              onRemove={() => {
                items.remove(index);
                clearError('configuration.catalogue.items');
              }}
            />
          ))}
        </ol>
      )}
      <Button
        variant="secondary"
        className="admin-knowledge__add"
        disabled={items.fields.length >= CATALOGUE_ITEMS_MAX}
        onClick={() => {
          pendingAdd.current = true;
          items.append(newItem(), { shouldFocus: false });
        }}
      >
        {t('agentManagement.catalogue.add')}
      </Button>
    </fieldset>
  );
}

type ItemErrors = NonNullable<NonNullable<CatalogueErrors>['items']>[number];

function CatalogueItem({
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
  control: FormControl;
  register: UseFormRegister<AgentFormValues>;
  clearError: (name: Path<AgentFormValues>) => void;
  errors: ItemErrors | undefined;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const fieldError = useAdminFieldError();
  const base = `configuration.catalogue.items.${index}` as const;
  const [names, price, unit, currency] = useWatch({
    control,
    name: [`${base}.name`, `${base}.price`, `${base}.unit`, 'configuration.catalogue.currency'],
  });
  // The select's first value as its default too (see the knowledge entry's language in agent-form.tsx).
  const [initialUnit] = useState(unit);
  const { open, setOpen, hasError } = useFoldOpenOnError(errors, startOpen);
  const language = (LANGUAGES as readonly string[]).includes(i18n.language)
    ? (i18n.language as (typeof LANGUAGES)[number])
    : LANGUAGES[0];
  const title = names?.[language]?.trim() || t('agentManagement.catalogue.untitled');
  const priceText =
    typeof price === 'number' && Number.isFinite(price)
      ? t(`agentManagement.catalogue.units.${unit ?? 'once'}`, {
          price: formatPrice(price, currency, i18n.language),
        })
      : '';

  const field = (name: Path<AgentFormValues>, options: Parameters<typeof register>[1] = {}) =>
    register(name, { ...options, onChange: () => clearError(name) } as Parameters<
      typeof register
    >[1]);

  return (
    <li className="admin-knowledge__item">
      <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="admin-knowledge__summary">
          <span>{title}</span>
          <span className="admin-catalogue__price">{priceText}</span>
          {hasError && (
            <span className="admin-knowledge__flag">
              {t('agentManagement.knowledge.hasErrors')}
            </span>
          )}
        </summary>
        <div className="admin-knowledge__body">
          <div className="admin-fieldset--row admin-catalogue__price-row">
            <TextField
              id={`${idPrefix}-price`}
              label={t('agentManagement.catalogue.price')}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              error={fieldError(errors?.price)}
              {...field(`${base}.price`, { valueAsNumber: true })}
            />
            <SelectField
              id={`${idPrefix}-unit`}
              label={t('agentManagement.catalogue.unit')}
              defaultValue={initialUnit}
              error={fieldError(errors?.unit)}
              {...field(`${base}.unit`)}
            >
              {PRICE_UNITS.map((option) => (
                <option key={option} value={option}>
                  {t(`agentManagement.catalogue.unitNames.${option}`)}
                </option>
              ))}
            </SelectField>
          </div>
          {LANGUAGES.map((lang) => (
            <fieldset key={lang} className="admin-fieldset">
              <legend>{LANGUAGE_NAMES[lang]}</legend>
              <TextField
                id={`${idPrefix}-name-${lang}`}
                label={t('agentManagement.catalogue.name')}
                maxLength={KNOWLEDGE_TITLE_MAX}
                autoComplete="off"
                error={fieldError(errors?.name?.[lang])}
                {...field(`${base}.name.${lang}`)}
              />
              <TextAreaField
                id={`${idPrefix}-description-${lang}`}
                label={t('agentManagement.catalogue.description')}
                rows={2}
                maxLength={KNOWLEDGE_CONTENT_MAX}
                error={fieldError(errors?.description?.[lang])}
                {...field(`${base}.description.${lang}`)}
              />
              <KeywordsField
                id={`${idPrefix}-keywords-${lang}`}
                name={`${base}.keywords.${lang}`}
                control={control}
                clearError={clearError}
                error={fieldError(
                  (errors?.keywords?.[lang] as { message?: string; type: string } | undefined) ??
                    undefined,
                )}
              />
            </fieldset>
          ))}
          <Button variant="secondary" className="admin-knowledge__remove" onClick={onRemove}>
            {t('agentManagement.catalogue.remove', { title })}
          </Button>
        </div>
      </details>
    </li>
  );
}
