import { describe, expect, it } from 'vitest';
import type { BusinessHours, KnowledgeEntry, Language } from '@contrateia/shared';
import { createBuiltinAnswerer } from './ai.builtin';
import { configuration } from './ai.test-fixtures';

// A clinic in Curitiba (UTC−3 all year): mornings and afternoons on weekdays, Saturday mornings,
// closed on Sundays, on Christmas Eve and Christmas Day.
const CLINIC: BusinessHours = {
  name: 'Clínica Sorriso Odontologia',
  timeZone: 'America/Sao_Paulo',
  hours: [
    ...[1, 2, 3, 4].flatMap((day) => [
      { day, open: '08:00', close: '12:00' },
      { day, open: '13:00', close: '19:00' },
    ]),
    { day: 5, open: '13:00', close: '18:00' },
    { day: 5, open: '08:00', close: '12:00' },
    { day: 6, open: '08:00', close: '12:00' },
  ],
  closedDates: ['2026-12-24', '2026-12-25', '2027-04-21'],
};

const BOOKING: KnowledgeEntry = {
  id: 'faq-1.pt-BR',
  language: 'pt-BR',
  title: 'Como faço para agendar uma consulta?',
  content: 'Pelo WhatsApp ou pelo telefone (41) 3023-4567.',
  keywords: ['Tem horário disponível?'],
};

/** What the clinic's agent answers at `at` (an instant; Curitiba is three hours behind UTC). */
async function ask(
  message: string,
  at: string,
  { language = 'pt-BR', business = CLINIC }: { language?: Language; business?: BusinessHours } = {},
) {
  const answer = createBuiltinAnswerer({ now: () => new Date(at) });
  return answer({
    agent: {
      name: 'clinica-sorriso',
      configuration: {
        ...configuration({
          knowledge: [BOOKING],
          capabilities: { skills: ['dateTime'], fallback: 'notFound' },
        }),
        business,
      },
    },
    message,
    language,
  });
}

// Saturday 5 December 2026, 11:30 in Curitiba.
const SATURDAY_MORNING = '2026-12-05T14:30:00Z';
// The same Saturday, 13:30: closed until Monday.
const SATURDAY_AFTERNOON = '2026-12-05T16:30:00Z';
// Tuesday 8 December 2026, 12:30: the lunch break.
const TUESDAY_LUNCH = '2026-12-08T15:30:00Z';

describe('a business’s hours', () => {
  it('answers "are you open on Saturday?" from the week, and whether it is open now', async () => {
    const reply = await ask('Vocês abrem no sábado?', SATURDAY_MORNING);
    expect(reply.topic).toBe('hours');
    expect(reply.text).toBe('Sábado: 8:00–12:00.\nAgora estamos abertos, até as 12:00.');
  });

  it('says it is closed on a day without periods, in chat spelling too', async () => {
    for (const question of ['vcs abrem domingo?', 'vcs abrem dmg?', 'abre no domingo?']) {
      const reply = await ask(question, TUESDAY_LUNCH);
      expect(reply.text, question).toBe('Domingo: fechado.');
    }
  });

  it('gives the whole week, days with the same hours together, and the closings ahead', async () => {
    const reply = await ask('qual o horário de funcionamento da clínica?', '2026-12-01T12:00:00Z');
    expect(reply.text).toBe(
      [
        'Nosso horário de atendimento:',
        '- Segunda-feira a quinta-feira: 8:00–12:00 e 13:00–19:00',
        '- Sexta-feira: 8:00–12:00 e 13:00–18:00',
        '- Sábado: 8:00–12:00',
        '- Domingo: fechado',
        '',
        'Agora estamos abertos, até as 12:00.',
        '',
        'Também estaremos fechados em:',
        '- Quinta-feira, 24 de dezembro',
        '- Sexta-feira, 25 de dezembro',
      ].join('\n'),
    );
  });

  it('says when it opens next: later today, after the weekend', async () => {
    expect((await ask('estão abertos agora?', TUESDAY_LUNCH)).text).toMatch(
      /^Agora estamos fechados; abrimos hoje às 13:00\.\nTerça-feira, 8 de dezembro: /,
    );
    expect((await ask('tão abertos hj?', SATURDAY_AFTERNOON)).text).toMatch(
      /^Agora estamos fechados; abrimos segunda-feira, 7 de dezembro, às 8:00\./,
    );
  });

  it('keeps the closed dates: a date asked, tomorrow, the holidays', async () => {
    // Wednesday 23 December, 20:00: tomorrow is Christmas Eve.
    const evening = '2026-12-23T23:00:00Z';
    expect((await ask('abrem amanhã?', evening)).text).toBe(
      'Quinta-feira, 24 de dezembro: fechado. Abrimos de novo sábado, 26 de dezembro, às 8:00.',
    );
    expect((await ask('vocês abrem dia 25/12?', evening)).text).toMatch(
      /^Sexta-feira, 25 de dezembro: fechado\./,
    );
    expect((await ask('vocês abrem no feriado?', evening)).text).toBe(
      [
        'Dias em que estaremos fechados:',
        '- Quinta-feira, 24 de dezembro',
        '- Sexta-feira, 25 de dezembro',
        '- Quarta-feira, 21 de abril',
      ].join('\n'),
    );
    // Saturday 26 December is open, though the days before were closed.
    expect((await ask('estão abertos agora?', evening)).text).toMatch(
      /^Agora estamos fechados; abrimos sábado, 26 de dezembro, às 8:00\./,
    );
  });

  it('reads a date written with its month, and a time of day, as people write them', async () => {
    const evening = '2026-12-23T23:00:00Z';
    expect((await ask('dia 24 de dezembro tem expediente ai?', evening)).text).toMatch(
      /^Quinta-feira, 24 de dezembro: fechado\./,
    );
    expect(
      (await ask('are you open on december 24th?', evening, { language: 'en-US' })).text,
    ).toMatch(/^Thursday, December 24: closed\./);
    expect((await ask('¿abren el 25 de diciembre?', evening, { language: 'es-ES' })).text).toMatch(
      /^Viernes, 25 de diciembre: cerrado\./,
    );
    // "posso ir…", "tem alguém aí…" with a day or a time ask whether it is open then.
    expect((await ask('consigo ir depois das 19h numa terça?', evening)).topic).toBe('hours');
    expect((await ask('sabado a tarde tem alguem ai?', evening)).topic).toBe('hours');
    expect((await ask('dia primeiro de janeiro vcs trabalham?', evening)).topic).toBe('hours');
    // Said among other things: the part that asks.
    expect(
      (await ask('oi, vcs funcionam na vespera de natal, dia 24, pq to de ferias', evening)).text,
    ).toMatch(/^Dias em que estaremos fechados:/);
    // A time said in words is a time too: "7 da noite", "às 7", "at 7 pm", "a las 8".
    expect((await ask('vcs atendem depois das 7 da noite?', evening)).topic).toBe('hours');
    expect((await ask('vocês atendem às 7?', evening)).topic).toBe('hours');
    expect((await ask('do you serve at 7 pm?', evening, { language: 'en-US' })).topic).toBe(
      'hours',
    );
    expect(
      (await ask('¿atienden a las 8 de la mañana?', evening, { language: 'es-ES' })).topic,
    ).toBe('hours');
    // A number of something is no time: "as 2 crianças".
    expect((await ask('vocês atendem as 2 crianças juntas?', evening)).topic).not.toBe('hours');
    // Without a day or a time, "como funciona?" asks how something works.
    expect((await ask('como funciona?', evening)).topic).not.toBe('hours');
  });

  it('warns of a closed date on the next such weekday', async () => {
    // Friday 18 December: next Thursday is Christmas Eve.
    expect((await ask('abrem na quinta?', '2026-12-18T12:00:00Z')).text).toBe(
      'Quinta-feira: 8:00–12:00 e 13:00–19:00. Exceção: quinta-feira, 24 de dezembro, estaremos fechados.',
    );
  });

  it('answers in the question’s language from the same data', async () => {
    expect(
      (await ask('are you open on saturday?', SATURDAY_MORNING, { language: 'en-US' })).text,
    ).toBe("Saturday: 8:00 AM–12:00 PM.\nWe're open now, until 12:00 PM.");
    const spanish = await ask('¿abren el domingo?', SATURDAY_MORNING, { language: 'pt-BR' });
    expect(spanish).toMatchObject({ language: 'es-ES', text: 'Domingo: cerrado.' });
  });

  it('reads the time in the business’s zone, not the server’s or the asker’s', async () => {
    // 11:30 in Curitiba is 10:30 in Manaus: a business there is open, and says so.
    const manaus = { ...CLINIC, timeZone: 'America/Manaus' };
    expect((await ask('aberto agora?', SATURDAY_MORNING, { business: manaus })).text).toMatch(
      /^Agora estamos abertos, até as 12:00\./,
    );
    // 13:30 in Curitiba is 17:30 in Lisbon, Saturday afternoon: closed.
    const lisbon = { ...CLINIC, timeZone: 'Europe/Lisbon' };
    expect((await ask('aberto agora?', SATURDAY_MORNING, { business: lisbon })).text).toMatch(
      /^Agora estamos fechados; abrimos segunda-feira/,
    );
  });

  it('leaves other questions to the rest of the agent: booking, the time, other topics', async () => {
    expect((await ask('Tem horário disponível?', TUESDAY_LUNCH)).topic).toBe('faq-1');
    expect((await ask('Que horas são?', TUESDAY_LUNCH)).topic).toBe('dateTime');
    expect((await ask('E se eu tiver dor fora do horário?', TUESDAY_LUNCH)).topic).not.toBe(
      'hours',
    );
  });

  it('states no hours it was not given', async () => {
    const none = { ...CLINIC, hours: [] };
    const reply = await ask('Vocês abrem no sábado?', SATURDAY_MORNING, { business: none });
    expect(reply.topic).toBe('refusal');
    expect(reply.text).not.toMatch(/\d:\d\d/);
  });
});
