import { DEFAULT_BUSINESS_TIME_ZONE, type MyAgent } from '@contrateia/shared';
import type { MyAgentFormValues } from '@/features/my-agents/validation';

type Values = Required<MyAgentFormValues>;
export type HoursRow = NonNullable<Values['business']['hours']>[number];
export type CatalogueRow = NonNullable<Values['catalogue']>[number];
export type FaqRow = NonNullable<Values['faq']>[number];

/** A new agent: nothing written yet, the business in São Paulo's time zone. */
export function emptyFormValues(): Values {
  return {
    displayName: '',
    description: '',
    instructions: '',
    business: {
      name: '',
      about: '',
      address: '',
      phone: '',
      website: '',
      timeZone: DEFAULT_BUSINESS_TIME_ZONE,
      hours: [],
      closedDates: [],
      handoffMessage: '',
    },
    catalogue: [],
    faq: [],
  };
}

/** A saved agent as the form edits it: every optional text given ('' for none). */
export function formValuesOf(agent: MyAgent): Values {
  const { business } = agent;
  return {
    displayName: agent.displayName,
    description: agent.description,
    instructions: agent.instructions,
    business: {
      name: business.name,
      about: business.about,
      address: business.address ?? '',
      phone: business.phone ?? '',
      website: business.website ?? '',
      timeZone: business.timeZone,
      hours: business.hours.map(({ day, open, close }) => ({ day, open, close })),
      closedDates: business.closedDates.map((date) => ({ date })),
      handoffMessage: business.handoffMessage ?? '',
    },
    catalogue: agent.catalogue.map((item) => ({
      name: item.name,
      description: item.description ?? '',
      price: item.price,
      unit: item.unit ?? '',
    })),
    faq: agent.faq.map((entry) => ({
      question: entry.question,
      answer: entry.answer,
      alternates: entry.alternates.join('\n'),
    })),
  };
}

/** A day's next opening period: 09:00–18:00 for its first, from the last one's close on. */
export function newPeriod(day: number, last: HoursRow | undefined): HoursRow {
  return last ? { day, open: last.close, close: '' } : { day, open: '09:00', close: '18:00' };
}

/** A new catalogue row: no price yet (NaN, which the schema refuses until one is typed). */
export const newCatalogueRow = (): CatalogueRow => ({
  name: '',
  description: '',
  price: Number.NaN,
  unit: '',
});

export const newFaqRow = (): FaqRow => ({ question: '', answer: '', alternates: '' });

/**
 * Every field of the form as the server names it in `errors` (dotted paths), for onFormFields
 * (lib/form-errors.ts): `faq.2.alternates.1`, one of the wordings, lands on the wordings' field.
 */
export function fieldPaths(values: MyAgentFormValues): string[] {
  const each = <T>(list: readonly T[] | undefined, base: string, fields: readonly string[]) => [
    base,
    ...(list ?? []).flatMap((_, index) => fields.map((field) => `${base}.${index}.${field}`)),
  ];
  return [
    'business.name',
    'business.about',
    'business.address',
    'business.phone',
    'business.website',
    'business.timeZone',
    ...each(values.business.hours, 'business.hours', ['open', 'close']),
    'business.closedDates',
    ...(values.business.closedDates ?? []).map((_, index) => `business.closedDates.${index}`),
    ...each(values.catalogue, 'catalogue', ['name', 'price', 'unit', 'description']),
    ...each(values.faq, 'faq', ['question', 'answer', 'alternates']),
    'displayName',
    'description',
    'instructions',
    'business.handoffMessage',
  ];
}
