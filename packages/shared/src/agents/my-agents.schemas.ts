import { z } from 'zod';
import { textInput } from '../text/text.schemas';
import { CLOCK_TIME } from './agents.schemas';

/**
 * An account's own agents: what a business teaches an agent about itself (its profile, hours,
 * catalogue and frequent questions), written in the account's own language. Every text is one
 * plain string: nothing asks for a translation.
 */

/** How many agents of its own an account may have. */
export const MY_AGENTS_MAX = 10;
/** How many documents an account may give its own agents, all of them together. */
export const MY_AGENT_DOCUMENTS_MAX = 20;
export const MY_AGENT_NAME_MAX = 60;
export const MY_AGENT_DESCRIPTION_MAX = 300;
export const MY_AGENT_INSTRUCTIONS_MAX = 8000;
export const BUSINESS_NAME_MAX = 120;
export const BUSINESS_ABOUT_MAX = 4000;
export const BUSINESS_FIELD_MAX = 300;
/** Opening periods in a week (several a day allowed). */
export const BUSINESS_HOURS_MAX = 50;
export const BUSINESS_CLOSED_DATES_MAX = 366;
export const MY_CATALOGUE_MAX = 200;
export const MY_FAQ_MAX = 300;
export const FAQ_ALTERNATES_MAX = 10;
export const ITEM_NAME_MAX = 200;
export const ITEM_TEXT_MAX = 4000;
export const ITEM_UNIT_MAX = 40;
export const PRICE_MAX = 1_000_000_000;
/** Where a business is when it says nothing else. */
export const DEFAULT_BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

/** A required text of at most `max` characters, trimmed; `required` and `tooLong` are message keys. */
const requiredText = (max: number, required: string, tooLong: string) =>
  textInput({ error: required }).trim().min(1, required).max(max, tooLong);

/** An optional text of at most `max` characters, trimmed; empty is none. */
const optionalText = (max: number, tooLong: string) =>
  textInput({ error: tooLong })
    .trim()
    .max(max, tooLong)
    .optional()
    .transform((text) => (text ? text : undefined));

/** Whether `zone` is an IANA time zone this runtime knows (`America/Sao_Paulo`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0 && zone.length <= 64;
  } catch {
    return false;
  }
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A period the business is open on a day of the week (0 = Sunday), from `open` to `close` ("HH:MM"). */
export const openingPeriodSchema = z
  .strictObject({
    day: z
      .number({ error: 'myAgentValidation.dayInvalid' })
      .int('myAgentValidation.dayInvalid')
      .min(0, 'myAgentValidation.dayInvalid')
      .max(6, 'myAgentValidation.dayInvalid'),
    open: textInput({ error: 'myAgentValidation.timeInvalid' }).regex(
      CLOCK_TIME,
      'myAgentValidation.timeInvalid',
    ),
    close: textInput({ error: 'myAgentValidation.timeInvalid' }).regex(
      CLOCK_TIME,
      'myAgentValidation.timeInvalid',
    ),
  })
  .refine((period) => minutesOf(period.close) > minutesOf(period.open), {
    message: 'myAgentValidation.closeBeforeOpen',
    path: ['close'],
  });
export type OpeningPeriod = z.infer<typeof openingPeriodSchema>;

/** A calendar date, "YYYY-MM-DD", that exists. */
const calendarDate = textInput({ error: 'myAgentValidation.dateInvalid' }).refine((text) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}, 'myAgentValidation.dateInvalid');

/** Who the business is and when it is open. */
export const businessProfileSchema = z.strictObject({
  name: requiredText(
    BUSINESS_NAME_MAX,
    'myAgentValidation.businessNameRequired',
    'myAgentValidation.businessNameTooLong',
  ),
  about: requiredText(
    BUSINESS_ABOUT_MAX,
    'myAgentValidation.aboutRequired',
    'myAgentValidation.aboutTooLong',
  ),
  address: optionalText(BUSINESS_FIELD_MAX, 'myAgentValidation.fieldTooLong'),
  phone: optionalText(BUSINESS_FIELD_MAX, 'myAgentValidation.fieldTooLong'),
  website: optionalText(BUSINESS_FIELD_MAX, 'myAgentValidation.fieldTooLong'),
  timeZone: textInput({ error: 'myAgentValidation.timeZoneInvalid' })
    .refine(isTimeZone, 'myAgentValidation.timeZoneInvalid')
    .default(DEFAULT_BUSINESS_TIME_ZONE),
  /** No period on a day: closed that day. */
  hours: z
    .array(openingPeriodSchema, { error: 'validation.invalidValue' })
    .max(BUSINESS_HOURS_MAX, 'myAgentValidation.hoursTooMany')
    .default([]),
  closedDates: z
    .array(calendarDate, { error: 'validation.invalidValue' })
    .max(BUSINESS_CLOSED_DATES_MAX, 'myAgentValidation.closedDatesTooMany')
    .default([]),
  /** What the agent says when it passes a conversation to a person. */
  handoffMessage: optionalText(BUSINESS_FIELD_MAX, 'myAgentValidation.fieldTooLong'),
});
export type BusinessProfile = z.output<typeof businessProfileSchema>;

/** A product or service the business sells, and its price (in reais). */
export const myCatalogueItemSchema = z.strictObject({
  name: requiredText(
    ITEM_NAME_MAX,
    'myAgentValidation.itemNameRequired',
    'myAgentValidation.itemNameTooLong',
  ),
  description: optionalText(ITEM_TEXT_MAX, 'myAgentValidation.itemTextTooLong'),
  price: z
    .number({ error: 'myAgentValidation.priceInvalid' })
    .finite('myAgentValidation.priceInvalid')
    .min(0, 'myAgentValidation.priceInvalid')
    .max(PRICE_MAX, 'myAgentValidation.priceInvalid'),
  /** What the price is for, in the business's words: "mês", "consulta". */
  unit: optionalText(ITEM_UNIT_MAX, 'myAgentValidation.unitTooLong'),
});
export type MyCatalogueItem = z.output<typeof myCatalogueItemSchema>;

/** A question as a customer asks it. */
const questionText = () =>
  requiredText(
    ITEM_NAME_MAX,
    'myAgentValidation.questionRequired',
    'myAgentValidation.questionTooLong',
  );

/** A question the business is often asked, its answer, and other ways it is asked. */
export const faqEntrySchema = z.strictObject({
  question: questionText(),
  answer: requiredText(
    ITEM_TEXT_MAX,
    'myAgentValidation.answerRequired',
    'myAgentValidation.itemTextTooLong',
  ),
  alternates: z
    .array(questionText(), { error: 'validation.invalidValue' })
    .max(FAQ_ALTERNATES_MAX, 'myAgentValidation.alternatesTooMany')
    .default([]),
});
export type FaqEntry = z.output<typeof faqEntrySchema>;

/** An agent of the account's own, as its owner writes it (create and replace). */
export const myAgentInputSchema = z.strictObject({
  displayName: requiredText(
    MY_AGENT_NAME_MAX,
    'myAgentValidation.displayNameRequired',
    'myAgentValidation.displayNameTooLong',
  ),
  description: textInput({ error: 'myAgentValidation.descriptionTooLong' })
    .trim()
    .max(MY_AGENT_DESCRIPTION_MAX, 'myAgentValidation.descriptionTooLong')
    .default(''),
  /** Tone and rules, free text. */
  instructions: textInput({ error: 'myAgentValidation.instructionsTooLong' })
    .trim()
    .max(MY_AGENT_INSTRUCTIONS_MAX, 'myAgentValidation.instructionsTooLong')
    .default(''),
  business: businessProfileSchema,
  catalogue: z
    .array(myCatalogueItemSchema, { error: 'validation.invalidValue' })
    .max(MY_CATALOGUE_MAX, 'myAgentValidation.catalogueTooMany')
    .default([]),
  faq: z
    .array(faqEntrySchema, { error: 'validation.invalidValue' })
    .max(MY_FAQ_MAX, 'myAgentValidation.faqTooMany')
    .default([]),
});
export type MyAgentInput = z.input<typeof myAgentInputSchema>;
export type MyAgentContent = z.output<typeof myAgentInputSchema>;

/** An agent of the account's own, as its owner reads it: everything it was taught. */
export const myAgentSchema = z.object({
  id: z.string(),
  /** Its chat page's slug, made from the display name: `/agent/{name}`. */
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  instructions: z.string(),
  business: z.object({
    name: z.string(),
    about: z.string(),
    address: z.string().optional(),
    phone: z.string().optional(),
    website: z.string().optional(),
    timeZone: z.string(),
    hours: z.array(z.object({ day: z.number(), open: z.string(), close: z.string() })),
    closedDates: z.array(z.string()),
    handoffMessage: z.string().optional(),
  }),
  catalogue: z.array(
    z.object({
      name: z.string(),
      description: z.string().optional(),
      price: z.number(),
      unit: z.string().optional(),
    }),
  ),
  faq: z.array(
    z.object({ question: z.string(), answer: z.string(), alternates: z.array(z.string()) }),
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MyAgent = z.infer<typeof myAgentSchema>;

export const myAgentResponseSchema = z.object({ agent: myAgentSchema });
export type MyAgentResponse = z.infer<typeof myAgentResponseSchema>;
export const myAgentsResponseSchema = z.object({ agents: z.array(myAgentSchema) });
export type MyAgentsResponse = z.infer<typeof myAgentsResponseSchema>;

/** What a create, save or delete answers: the agent, and what was done to it, in the caller's language. */
export const myAgentReplySchema = myAgentResponseSchema.extend({
  success: z.literal(true),
  message: z.string(),
});
export type MyAgentReply = z.infer<typeof myAgentReplySchema>;
