import {
  BUSINESS_ABOUT_MAX,
  BUSINESS_FIELD_MAX,
  BUSINESS_NAME_MAX,
  DEFAULT_BUSINESS_TIME_ZONE,
} from '@contrateia/shared';
import { useMemo, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField, TextAreaField } from '@/components/ui/form-fields';
import { TextField } from '@/components/ui/text-field';
import { FormSection } from '@/features/my-agents/components/form-section';
import { useFieldError } from '@/features/my-agents/hooks/use-field-error';
import type { MyAgentFormOutput, MyAgentFormValues } from '@/features/my-agents/validation';

/** The time zones this browser knows, by region ("America" → ["America/Sao_Paulo", …]). */
function zonesByRegion(extra: string): [string, string[]][] {
  const zones = new Set(Intl.supportedValuesOf('timeZone'));
  // A saved zone the browser does not list (an alias) stays choosable, and so does the default.
  zones.add(extra);
  zones.add(DEFAULT_BUSINESS_TIME_ZONE);
  const regions = new Map<string, string[]>();
  for (const zone of [...zones].sort()) {
    const region = zone.includes('/') ? zone.slice(0, zone.indexOf('/')) : '';
    regions.set(region, [...(regions.get(region) ?? []), zone]);
  }
  return [...regions];
}

/** "America/Argentina/Buenos_Aires" in its region's group: "Argentina / Buenos Aires". */
const placeOf = (zone: string) =>
  zone
    .slice(zone.indexOf('/') + 1)
    .replaceAll('_', ' ')
    .replaceAll('/', ' / ');

/** Negócio: who the business is, how to reach it, and its time zone. */
export function BusinessSection() {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const {
    register,
    getValues,
    formState: { errors },
  } = useFormContext<MyAgentFormValues, unknown, MyAgentFormOutput>();
  const business = errors.business;
  // The zone the form starts with (later choices are in the list already), also the select's
  // own default, so that it never shows another option before the form sets its value.
  const [initialZone] = useState(
    () => getValues('business.timeZone') ?? DEFAULT_BUSINESS_TIME_ZONE,
  );
  const regions = useMemo(() => zonesByRegion(initialZone), [initialZone]);

  return (
    <FormSection
      name="business"
      title={t('ownAgents.business.title')}
      intro={t('ownAgents.business.intro')}
    >
      <TextField
        id="my-agent-business-name"
        label={t('ownAgents.business.name')}
        autoComplete="organization"
        maxLength={BUSINESS_NAME_MAX}
        error={fieldError(business?.name)}
        {...register('business.name')}
      />
      <TextAreaField
        id="my-agent-business-about"
        label={t('ownAgents.business.about')}
        hint={t('ownAgents.business.aboutHint')}
        rows={4}
        maxLength={BUSINESS_ABOUT_MAX}
        error={fieldError(business?.about)}
        {...register('business.about')}
      />
      <div className="my-agent-grid">
        <TextField
          id="my-agent-business-address"
          className="my-agent-grid__wide"
          label={t('ownAgents.business.address')}
          autoComplete="street-address"
          maxLength={BUSINESS_FIELD_MAX}
          error={fieldError(business?.address)}
          {...register('business.address')}
        />
        <TextField
          id="my-agent-business-phone"
          label={t('ownAgents.business.phone')}
          type="tel"
          autoComplete="tel"
          maxLength={BUSINESS_FIELD_MAX}
          error={fieldError(business?.phone)}
          {...register('business.phone')}
        />
        <TextField
          id="my-agent-business-website"
          label={t('ownAgents.business.website')}
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          maxLength={BUSINESS_FIELD_MAX}
          error={fieldError(business?.website)}
          {...register('business.website')}
        />
      </div>
      <SelectField
        id="my-agent-business-time-zone"
        label={t('ownAgents.business.timeZone')}
        hint={t('ownAgents.business.timeZoneHint')}
        defaultValue={initialZone}
        error={fieldError(business?.timeZone)}
        {...register('business.timeZone')}
      >
        {regions.map(([region, zones]) =>
          region ? (
            <optgroup key={region} label={region}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {placeOf(zone)}
                </option>
              ))}
            </optgroup>
          ) : (
            zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))
          ),
        )}
      </SelectField>
    </FormSection>
  );
}
