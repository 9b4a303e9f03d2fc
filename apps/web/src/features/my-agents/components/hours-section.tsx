import { BUSINESS_CLOSED_DATES_MAX, BUSINESS_HOURS_MAX } from '@contrateia/shared';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { newPeriod } from '@/features/my-agents/form-values';
import { RemoveButton } from '@/features/my-agents/components/form-rows';
import { FormSection, ListError } from '@/features/my-agents/components/form-section';
import { listError, useFieldError } from '@/features/my-agents/hooks/use-field-error';
import { useFocusAfterRender } from '@/features/my-agents/hooks/use-focus-after-render';
import type { MyAgentFormOutput, MyAgentFormValues } from '@/features/my-agents/validation';

/** The week as a business reads it: Monday first, Sunday (0) last. */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

/** The weekday's name in `language`, capitalised as a heading ("Segunda-feira", "Monday"). */
function weekdayName(day: number, language: string): string {
  // 1 January 2023 was a Sunday (day 0).
  const name = new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2023, 0, 1 + day)),
  );
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

/**
 * Horários: each weekday's opening periods (none: closed that day; two for a lunch break), and
 * the dates the business is closed.
 */
export function HoursSection() {
  const { t, i18n } = useTranslation();
  const fieldError = useFieldError();
  const {
    control,
    register,
    getValues,
    formState: { errors },
  } = useFormContext<MyAgentFormValues, unknown, MyAgentFormOutput>();
  const hours = useFieldArray({ control, name: 'business.hours' });
  const dates = useFieldArray({ control, name: 'business.closedDates' });
  const focusLater = useFocusAfterRender();
  const hoursErrors = errors.business?.hours;
  const datesErrors = errors.business?.closedDates;
  const fullWeek = hours.fields.length >= BUSINESS_HOURS_MAX;

  return (
    <FormSection name="hours" title={t('ownAgents.hours.title')} intro={t('ownAgents.hours.intro')}>
      <ListError error={fieldError(listError(hoursErrors))} />
      <div className="my-agent-week">
        {WEEK.map((day) => {
          const name = weekdayName(day, i18n.language);
          const periods = hours.fields
            .map((field, index) => ({ field, index }))
            .filter(({ field }) => field.day === day);
          const addId = `my-agent-hours-${day}-add`;
          return (
            // A group named by a heading rather than a fieldset: the day's name stands in a
            // column of its own beside its periods, which a legend cannot.
            <div
              key={day}
              id={`my-agent-day-${day}`}
              role="group"
              aria-labelledby={`my-agent-day-${day}-name`}
              className="my-agent-day"
            >
              <h3 id={`my-agent-day-${day}-name`} className="my-agent-day__name">
                {name}
              </h3>
              <div className="my-agent-day__periods">
                {periods.length === 0 ? (
                  <p className="my-agent-day__closed">{t('ownAgents.hours.closed')}</p>
                ) : (
                  <ol className="my-agent-periods">
                    {periods.map(({ field, index }, position) => {
                      const id = `my-agent-hours-${field.id}`;
                      const which = (
                        <span className="visually-hidden">
                          {t('ownAgents.hours.period', { day: name, number: position + 1 })}{' '}
                        </span>
                      );
                      const periodErrors = hoursErrors?.[index];
                      return (
                        <li key={field.id} className="my-agent-period">
                          <TextField
                            id={`${id}-open`}
                            className="my-agent-period__time"
                            type="time"
                            label={
                              <>
                                {which}
                                {t('ownAgents.hours.open')}
                              </>
                            }
                            error={fieldError(periodErrors?.open)}
                            {...register(`business.hours.${index}.open`)}
                          />
                          <TextField
                            id={`${id}-close`}
                            className="my-agent-period__time"
                            type="time"
                            label={
                              <>
                                {which}
                                {t('ownAgents.hours.close')}
                              </>
                            }
                            error={fieldError(periodErrors?.close ?? periodErrors?.day)}
                            {...register(`business.hours.${index}.close`)}
                          />
                          <RemoveButton
                            compact
                            label={t('ownAgents.hours.removePeriod', {
                              day: name,
                              number: position + 1,
                            })}
                            onClick={() => {
                              hours.remove(index);
                              focusLater(`#${addId}`);
                            }}
                          />
                        </li>
                      );
                    })}
                  </ol>
                )}
                <Button
                  id={addId}
                  variant="secondary"
                  className="my-agent-add"
                  disabled={fullWeek}
                  aria-label={t('ownAgents.hours.addFor', { day: name })}
                  onClick={() => {
                    const last = getValues('business.hours')?.findLast((row) => row.day === day);
                    hours.append(newPeriod(day, last), { shouldFocus: false });
                    focusLater(`#my-agent-day-${day} .my-agent-period:last-child input`);
                  }}
                >
                  {t('ownAgents.hours.add')}
                </Button>
              </div>
            </div>
          );
        })}
      </div>

      <fieldset className="my-agent-dates">
        <legend className="my-agent-dates__legend">{t('ownAgents.hours.closedDates')}</legend>
        <p className="field__hint">{t('ownAgents.hours.closedDatesHint')}</p>
        <ListError error={fieldError(listError(datesErrors))} />
        {dates.fields.length > 0 && (
          <ol className="my-agent-dates__list">
            {dates.fields.map((field, index) => (
              <li key={field.id} className="my-agent-dates__row">
                <TextField
                  id={`my-agent-date-${field.id}`}
                  className="my-agent-dates__field"
                  type="date"
                  label={
                    <span className="visually-hidden">
                      {t('ownAgents.hours.closedDate', { number: index + 1 })}
                    </span>
                  }
                  error={fieldError(datesErrors?.[index])}
                  {...register(`business.closedDates.${index}.date`)}
                />
                <RemoveButton
                  compact
                  label={t('ownAgents.hours.removeDate', { number: index + 1 })}
                  onClick={() => {
                    dates.remove(index);
                    focusLater('#my-agent-dates-add');
                  }}
                />
              </li>
            ))}
          </ol>
        )}
        <Button
          id="my-agent-dates-add"
          variant="secondary"
          className="my-agent-add"
          disabled={dates.fields.length >= BUSINESS_CLOSED_DATES_MAX}
          onClick={() => {
            dates.append({ date: '' }, { shouldFocus: false });
            focusLater('.my-agent-dates__row:last-child input');
          }}
        >
          {t('ownAgents.hours.addDate')}
        </Button>
      </fieldset>
    </FormSection>
  );
}
