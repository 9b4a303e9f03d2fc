import { zodResolver } from '@hookform/resolvers/zod';
import { businessProfileSchema, myAgentInputSchema } from '@contrateia/shared';
import { z } from 'zod';

// The form validates with the schema the server checks. Two lists are edited in another shape
// than the request's, and piped into the shared rules, so that an error has the path the
// server would give it: closed dates as rows ({date}), because a field array holds objects, and
// each question's other wordings as one text, a line each.

/** The lines of a text that hold something, trimmed. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const closedDatesFormSchema = z
  .array(z.object({ date: z.string() }))
  .transform((rows) => rows.map((row) => row.date))
  .pipe(businessProfileSchema.shape.closedDates.unwrap());

const faqSchema = myAgentInputSchema.shape.faq.unwrap();
const faqFormSchema = z
  .array(z.object({ question: z.string(), answer: z.string(), alternates: z.string() }))
  .transform((entries): z.input<typeof faqSchema> =>
    entries.map((entry) => ({ ...entry, alternates: linesOf(entry.alternates) })),
  )
  .pipe(faqSchema);

export const myAgentFormSchema = myAgentInputSchema.extend({
  business: businessProfileSchema.extend({ closedDates: closedDatesFormSchema }),
  faq: faqFormSchema,
});

/** What the form holds; every text is a string (an optional one is ''), a price a number (NaN: not one). */
export type MyAgentFormValues = z.input<typeof myAgentFormSchema>;
/** What the form sends: the request body, as the shared schema makes it. */
export type MyAgentFormOutput = z.output<typeof myAgentFormSchema>;

export const myAgentResolver = zodResolver(myAgentFormSchema);
