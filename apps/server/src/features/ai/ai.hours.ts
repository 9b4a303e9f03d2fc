import SearchableMap from 'minisearch/SearchableMap';
import type { BusinessHours, Language } from '@contrateia/shared';
import type { Translate } from '@/lib/i18n';
import { wallClock, type WallClock } from '@/lib/time-zone';
import { isConcept } from './ai.concepts';
import { normalizeText, processWord } from './ai.search';
import { perLanguage, VOCABULARY, type Vocabulary } from './ai.vocabulary';

/**
 * "Vocês abrem no sábado?", "are you open now?", "¿abren en Navidad?": a business's hours,
 * answered from its weekly periods, its closed dates and the time now in its zone, never from a
 * text that may be out of date. Every figure comes from the data; the sentences are the shared
 * locales' `engine.hours.*`, so a Portuguese business's hours are answered in any language.
 */

export type HoursQuestion = {
  /** The question's words, normalized (ai.builtin's `plain`)… */
  plain: string;
  /** …and the question as typed, normalized: where dates ("24/12") are read. */
  text: string;
  language: Language;
  vocabulary: Vocabulary;
  t: Translate;
  now: Date;
  business: BusinessHours;
  /** The business's and the agent's names, normalized words: "a Clínica Sorriso abre…" asks nothing else. */
  names: ReadonlySet<string>;
};

/** How far ahead the next opening is looked for, and closed dates are listed, in days. */
const LOOKAHEAD_DAYS = 14;
const UPCOMING_CLOSED_DAYS = 45;
const CLOSED_DATES_LISTED = 10;
/** The order of the week in the answers: Monday first, as Brazil's and Spain's calendars have it. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/** "dd/mm" or "dd/mm/yyyy" in a question: a date asked about. */
const DATE = /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?\b/g;

/** A time of day written with a colon: "8:30". */
const CLOCK = /\b\d{1,2}:\d{2}\b/;

/**
 * A time of day said in words, in a normalized question: "7 da noite", "8 de la mañana", "às 7",
 * "at 7", "a las 7", "7h30", "7pm".
 */
const TIME_SAID =
  /\b\d{1,2}(h\d{0,2})? (da|de la|de|in the) (manha|tarde|noite|madrugada|manana|noche|morning|afternoon|evening)\b|\b(as|at|a las|las) \d{1,2}(h\d{0,2})?(?=$| (da|de|ou|e|o|or|antes|depois|horas?|ja|ya|already)\b)|\b\d{1,2}(h\d{0,2}| ?(am|pm))\b/;

/**
 * How late, which asks the closing of whatever is open: "de noite vai até q horas?", "until what
 * time?", "¿hasta qué hora?".
 */
const UNTIL_WHEN = /\b(ate|until|till|hasta) (que|what|which) (horas?|time|hour)\b/;

/** Whether a question's words (normalized, spelt out) ask how late: see UNTIL_WHEN. */
export const asksHowLate = (plain: string) => UNTIL_WHEN.test(plain);

/** A part of the day: "vcs atendem de tarde?", "do you see patients in the evening?" */
const DAY_PART = /\b(manhas?|tardes?|noites?|mornings?|afternoons?|evenings?|nights?|noches?)\b/;

/** Holidays whose names are made of other words: "Sexta-feira Santa", "Good Friday". */
const MOVABLE_HOLIDAY =
  /\b(sexta feira santa|semana santa|viernes santo|jueves santo|good friday|holy week|easter)\b/;

/** The answer when the question asks about the business's hours and nothing else; else undefined. */
export function hoursAnswer(question: HoursQuestion): string | undefined {
  const { plain, vocabulary, business } = question;
  if (business.hours.length === 0) return undefined;
  const said = plain
    .split(' ')
    .filter(Boolean)
    .map((word) => hoursWord(word, question.language));
  const has = (words: ReadonlySet<string>) => said.some((word) => words.has(word));
  const today = wallClock(question.now, business.timeZone);
  const dates = datesIn(question.text, today.date, question.language);
  const days = said.flatMap((word) => {
    const day = vocabulary.weekdays.get(word);
    return day === undefined ? [] : [day];
  });
  if (vocabulary.weekend.test(plain)) days.push(6, 0);
  const names = {
    holiday: has(vocabulary.holiday) || MOVABLE_HOLIDAY.test(plain),
    tomorrow: has(vocabulary.tomorrow),
    now: has(vocabulary.now),
    today: has(vocabulary.today),
  };
  const when =
    days.length > 0 || dates.length > 0 || Object.values(names).some((named) => named === true);
  // "sexta vcs vão até q horas?": the clock asked of a day is the hours of that day.
  const day = days.length > 0 || dates.length > 0 || names.holiday || names.tomorrow;
  const asks =
    has(vocabulary.openingHours) ||
    (has(vocabulary.clock) && day) ||
    asksHowLate(plain) ||
    (has(vocabulary.serving) &&
      (when ||
        has(vocabulary.clock) ||
        CLOCK.test(question.text) ||
        TIME_SAID.test(plain) ||
        DAY_PART.test(plain)));
  // A holiday's year ("na Sexta-feira Santa de 2027") is a date's number too.
  const datesAsked = dates.length > 0 || names.holiday;
  if (!asks || !said.every((word) => isAboutHours(word, question, datesAsked))) return undefined;

  const schedule = new Schedule(business, question);
  if (names.holiday) return schedule.closedDates(today.date);
  if (dates.length > 0)
    return dates.map((date) => schedule.dateAnswer(date, today.date)).join('\n');
  if (names.tomorrow) return schedule.dateAnswer(addDays(today.date, 1), today.date);
  if (days.length > 0) {
    const lines = [...new Set(days)].map((day) => schedule.weekdayAnswer(day, today.date));
    if (days.includes(today.day)) lines.push(schedule.status(today));
    return lines.join('\n');
  }
  if (names.now || names.today)
    return `${schedule.status(today)}\n${schedule.dateLine(today.date)}.`;
  return schedule.week(today);
}

/** The week, whether it is open at `now` and the closings ahead, in `language`: what a model is told. */
export function hoursSummary(
  business: BusinessHours,
  now: Date,
  t: Translate,
  language: Language,
): string {
  return new Schedule(business, { language, t }).week(wallClock(now, business.timeZone));
}

/** The shortest word read as a form or a slip of an hours word: shorter ones are many other words' too. */
const FORMS_FROM = 4;

/** The words that ask about opening and serving, by language, for hoursWord. */
const hoursWords = perLanguage((language) => {
  const { openingHours, serving } = VOCABULARY[language];
  const known = new SearchableMap<string>();
  const terms = new Map<string, string>();
  const stems = new Map<string, string>();
  for (const word of [...openingHours, ...serving]) {
    if (word.length < FORMS_FROM) continue;
    known.set(word, word);
    const term = processWord(word, language);
    if (term === null) continue;
    terms.set(term, word);
    if (term.length > FORMS_FROM && !isConcept(term)) stems.set(term, word);
  }
  return { known, terms, stems };
});

/**
 * `word` as the hours word it is a form or a slip of: another tense of one ("funcionará",
 * "estarão" of "estar", a small word), one letter away ("abrm") or two letters swapped
 * ("fehcam"). Any other word stays as it is.
 */
function hoursWord(word: string, language: Language): string {
  const { known, terms, stems } = hoursWords(language);
  if (word.length < FORMS_FROM || known.has(word)) return word;
  const term = processWord(word, language);
  if (term === null || isFiller(word, language)) return word;
  // "atenderão" is "atender", the group of "atende"; "estarão" is "estar", a small word.
  const again = processWord(term, language);
  const same = terms.get(term) ?? (again === null ? undefined : terms.get(again));
  if (same !== undefined) return same;
  if (again === null) return term;
  for (const [stem, hours] of stems) if (term.startsWith(stem)) return hours;
  for (const [candidate, [, distance]] of known.fuzzyGet(word, 1)) {
    if (distance === 1) return candidate;
  }
  for (let i = 0; i + 1 < word.length; i++) {
    const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (known.has(swapped)) return swapped;
  }
  return word;
}

/** Whether a word says when in words: a day, a part of it, "amanhã", the clock, a filler of hours. */
export function saysWhen(word: string, vocabulary: Vocabulary): boolean {
  return (
    vocabulary.weekdays.has(word) ||
    vocabulary.hoursFiller.has(word) ||
    vocabulary.now.has(word) ||
    vocabulary.today.has(word) ||
    vocabulary.tomorrow.has(word) ||
    vocabulary.clock.has(word)
  );
}

/** Whether a word is one of the other words of hours (days, fillers, the clock, now, holidays). */
function isFiller(word: string, language: Language): boolean {
  const vocabulary = VOCABULARY[language];
  return saysWhen(word, vocabulary) || vocabulary.holiday.has(word);
}

/** A word a question about hours may say: hours and day words, fillers, names, dates. */
function isAboutHours(word: string, question: HoursQuestion, datesAsked: boolean): boolean {
  const { vocabulary, language, names } = question;
  // A time of day ("19h", "8h30") or, with a date, its numbers.
  if (/^\d{1,2}h(\d{2})?$/.test(word)) return true;
  if (/^\d+$/.test(word))
    return datesAsked || CLOCK.test(question.text) || TIME_SAID.test(question.plain);
  if (/^\d{1,2}(st|nd|rd|th|o)$/.test(word)) return datesAsked;
  if (datesAsked && /^(primeiro|primero|first)$/.test(word)) return true;
  if (datesAsked && monthNames(language).has(word)) return true;
  const term = processWord(word, language);
  return (
    vocabulary.openingHours.has(word) ||
    vocabulary.serving.has(word) ||
    isFiller(word, language) ||
    names.has(word) ||
    term === null ||
    // Another form of one of them: "afternoons", "timings".
    hoursTerms(language).has(term)
  );
}

/** The search terms of the words of hours (ai.search's processWord), for their other forms. */
const hoursTerms = perLanguage((language) => {
  const vocabulary = VOCABULARY[language];
  const all = [
    ...vocabulary.openingHours,
    ...vocabulary.serving,
    ...vocabulary.clock,
    ...vocabulary.weekdays.keys(),
    ...vocabulary.hoursFiller,
    ...vocabulary.holiday,
  ];
  return new Set(all.flatMap((word) => processWord(word, language) ?? []));
});

/** The dates a question names ("dia 24/12"), the next such date on or after today without a year. */
function datesIn(text: string, today: string, language: Language): string[] {
  const dates: string[] = [];
  const named = [...text.matchAll(namedDates(language))].map((match) => {
    const { day, dayAfter, month, monthFirst, year } = match.groups!;
    const said = day ?? dayAfter ?? '';
    return [
      match[0],
      /^\d+$/.test(said) ? said : '1',
      String(monthNames(language).get((month ?? monthFirst)!)),
      year,
    ];
  });
  for (const [, day, month, year] of [...text.replaceAll(' / ', '/').matchAll(DATE), ...named]) {
    const thisYear = Number(today.slice(0, 4));
    const asked = year === undefined ? thisYear : Number(year.length === 2 ? `20${year}` : year);
    let date = isoDate(asked, Number(month), Number(day));
    if (date && year === undefined && date < today)
      date = isoDate(thisYear + 1, Number(month), Number(day));
    if (date) dates.push(date);
  }
  return dates;
}

/** The months' names in a language, normalized ("marco" for março), to their numbers. */
const monthNames = perLanguage((language) => {
  const format = new Intl.DateTimeFormat(language, { month: 'long', timeZone: 'UTC' });
  return new Map(
    Array.from({ length: 12 }, (_, month) => [
      normalizeText(format.format(Date.UTC(2026, month, 1))),
      month + 1,
    ]),
  );
});

/**
 * A date written with its month's name: "24 de dezembro", "25 de diciembre de 2026", "december
 * 24", "24th of December".
 */
const namedDates = perLanguage((language) => {
  const months = [...monthNames(language).keys()].join('|');
  // The first of a month is often written out: "primeiro de janeiro", "first of january".
  const day = '(?<day>\\d{1,2}|primeiro|primero|first)(?:st|nd|rd|th|o)?';
  const year = '(?:,? (?:de |of )?(?<year>\\d{4}))?';
  return new RegExp(
    `\\b(?:${day} (?:de |of )?(?<month>${months})|(?<monthFirst>${months}) (?<dayAfter>\\d{1,2})(?:st|nd|rd|th)?)${year}\\b`,
    'g',
  );
});

function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date.toISOString().slice(0, 10)
    : undefined;
}

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const weekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();

const minutesOf = (time: string): number =>
  Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

// Intl formatters cost far more to make than to use: one set per language, kept.
const formats = perLanguage((language) => ({
  time: new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }),
  weekday: new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }),
  date: new Intl.DateTimeFormat(language, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }),
  list: new Intl.ListFormat(language, { type: 'conjunction' }),
}));

const capitalized = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** A business's week and closed dates, written in one language. */
class Schedule {
  private readonly byDay: ReadonlyMap<number, BusinessHours['hours']>;
  private readonly closed: ReadonlySet<string>;
  private readonly t: Translate;
  private readonly format: ReturnType<typeof formats>;

  constructor(
    private readonly business: BusinessHours,
    { language, t }: { language: Language; t: Translate },
  ) {
    this.byDay = new Map(
      WEEK.map((day) => [
        day,
        business.hours
          .filter((period) => period.day === day)
          .sort((a, b) => minutesOf(a.open) - minutesOf(b.open)),
      ]),
    );
    this.closed = new Set(business.closedDates);
    this.t = t;
    this.format = formats(language);
  }

  /** The week, what now is, and the closings ahead. */
  week(today: WallClock): string {
    const upcoming = this.business.closedDates
      .filter((date) => date >= today.date && date <= addDays(today.date, UPCOMING_CLOSED_DAYS))
      .sort()
      .map((date) => `- ${capitalized(this.dateName(date))}`);
    const closings = upcoming.length
      ? `\n\n${this.t('engine.hours.alsoClosed')}\n${upcoming.join('\n')}`
      : '';
    return `${this.t('engine.hours.intro')}\n${this.weekLines()}\n\n${this.status(today)}${closings}`;
  }

  /** A line per day, days with the same hours together ("- Segunda-feira a quinta-feira: …"). */
  private weekLines(): string {
    const groups: { days: number[]; periods: string }[] = [];
    for (const day of WEEK) {
      const periods = this.periodsText(day);
      const last = groups.at(-1);
      if (last && last.periods === periods) last.days.push(day);
      else groups.push({ days: [day], periods });
    }
    const lines = groups.map(({ days, periods }) => {
      const first = this.weekdayName(days[0]!);
      const label =
        days.length === 1
          ? first
          : this.t('engine.hours.range', { from: first, to: this.weekdayName(days.at(-1)!) });
      return `- ${capitalized(label)}: ${periods}`;
    });
    return lines.join('\n');
  }

  /** "Sábado: 8:00–12:00", and the next such day if it is a closed date. */
  weekdayAnswer(day: number, today: string): string {
    const line = `${capitalized(this.weekdayName(day))}: ${this.periodsText(day)}.`;
    const next = addDays(today, (day - weekdayOf(today) + 7) % 7);
    if (!this.closed.has(next) || this.byDay.get(day)!.length === 0) return line;
    return `${line} ${this.t('engine.hours.exception', { day: this.dateName(next) })}`;
  }

  /** "Quinta-feira, 24 de dezembro: fechado". */
  dateLine(date: string): string {
    const periods = this.closed.has(date)
      ? this.t('engine.hours.closed')
      : this.periodsText(weekdayOf(date));
    return `${capitalized(this.dateName(date))}: ${periods}`;
  }

  /** The closed dates ahead, or that there are none and the usual week. */
  closedDates(today: string): string {
    const ahead = this.business.closedDates
      .filter((date) => date >= today)
      .sort()
      .slice(0, CLOSED_DATES_LISTED);
    if (ahead.length === 0) return `${this.t('engine.hours.noClosedDates')}\n${this.weekLines()}`;
    const list = ahead.map((date) => `- ${capitalized(this.dateName(date))}`);
    return `${this.t('engine.hours.closedDates')}\n${list.join('\n')}`;
  }

  /** Whether it is open now, until when, or when it opens next. */
  status(now: WallClock): string {
    const todays = this.closed.has(now.date) ? [] : this.byDay.get(now.day)!;
    const current = todays.find(
      (period) => minutesOf(period.open) <= now.minutes && now.minutes < minutesOf(period.close),
    );
    if (current) return this.t('engine.hours.openNow', { time: this.time(current.close) });
    const when = this.nextOpening(now.date, now.minutes);
    return when
      ? this.t('engine.hours.closedNowOpens', { when })
      : this.t('engine.hours.closedNow');
  }

  /** "Domingo, 6 de dezembro: fechado.", and when it opens again. */
  dateAnswer(date: string, today: string): string {
    const line = `${this.dateLine(date)}.`;
    if (!this.closed.has(date) && this.byDay.get(weekdayOf(date))!.length > 0) return line;
    const when = this.nextOpening(date, 24 * 60, today);
    return when ? `${line} ${this.t('engine.hours.opensAgain', { when })}` : line;
  }

  /** When it opens after `minutes` into `date` ("hoje às 13:00", "segunda-feira, 7 de dezembro, às 8:00"). */
  private nextOpening(date: string, minutes: number, today = date): string | undefined {
    for (let ahead = 0; ahead <= LOOKAHEAD_DAYS; ahead += 1) {
      const day = addDays(date, ahead);
      if (this.closed.has(day)) continue;
      const next = this.byDay
        .get(weekdayOf(day))!
        .find((period) => ahead > 0 || minutesOf(period.open) > minutes);
      if (!next) continue;
      const time = this.time(next.open);
      if (day === today) return this.t('engine.hours.todayAt', { time });
      if (day === addDays(today, 1)) return this.t('engine.hours.tomorrowAt', { time });
      return this.t('engine.hours.dayAt', { day: this.dateName(day), time });
    }
    return undefined;
  }

  private periodsText(day: number): string {
    const periods = this.byDay.get(day)!;
    if (periods.length === 0) return this.t('engine.hours.closed');
    return this.format.list.format(
      periods.map((period) => `${this.time(period.open)}–${this.time(period.close)}`),
    );
  }

  private time(clock: string): string {
    return this.format.time.format(
      Date.UTC(2000, 0, 1, Number(clock.slice(0, 2)), Number(clock.slice(3, 5))),
    );
  }

  /** The weekday's name: 2023-01-01 was a Sunday. */
  private weekdayName(day: number): string {
    return this.format.weekday.format(Date.UTC(2023, 0, 1 + day));
  }

  private dateName(date: string): string {
    return this.format.date.format(new Date(`${date}T00:00:00Z`));
  }
}
