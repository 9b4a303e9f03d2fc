import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyAgent, MyAgentInput, WhatsAppStatus } from '@contrateia/shared';
import type { TestContext } from '../../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { conversations, conversationDetail as detail } from '../../../test/whatsapp';
import {
  startRunning,
  transportDrivers,
  type Running,
  type TransportDriver,
} from '../../../test/whatsapp-drivers';
import { settles } from '../../../test/eventually';

// "Quem atende seus clientes?": a number linked answers nobody until its account chooses an
// agent; guia, the platform's own help, never answers a business's customers unasked. Chosen,
// the account's own agent answers from what it was taught. The same cases on both transports.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
/** What the contact's phone got: through a socket, so not at once. */
const WAIT = { timeout: 10_000, interval: 50 };

const EXAMPLES = path.resolve(import.meta.dirname, '../../../test/examples');
/** The example business: a dental clinic in Curitiba, as a `POST /api/my-agents` body. */
const CLINIC = JSON.parse(
  fs.readFileSync(path.resolve(EXAMPLES, 'clinica-sorriso.json'), 'utf8'),
) as MyAgentInput;

const { drivers, newPhone } = transportDrivers({
  secret: 'sandbox-secret-of-the-answering-tests',
  phonePrefix: '55318',
});

describe.each(drivers)('who answers the contacts ($name)', (driver: TransportDriver) => {
  let running: Running;
  let ctx: TestContext;
  let ana: Account;
  let phone: string;
  beforeAll(async () => {
    running = await startRunning({
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: driver.whatsapp(),
    });
    ctx = running.ctx;
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    phone = await driver.link(running, ana, { answeredBy: null });
  });
  afterAll(async () => ctx.close());

  /** A contact's message, once stored, and what came of its auto-reply. */
  async function write(from: string, text: string) {
    const since = running.replies.count;
    await driver.contactWrites(running, phone, from, text);
    return (await running.replies.settled({ userId: ana.user.id, since }))[0]!.outcome;
  }

  const status = async () =>
    (await get(ctx, '/api/whatsapp/status', { token: ana.token })).json<{ data: WhatsAppStatus }>()
      .data;
  const choose = (defaultAgentId: string | null) =>
    post(ctx, '/api/whatsapp/settings', { defaultAgentId }, { token: ana.token });

  it('nobody answers until the account chooses; chosen, its own agent answers from the business; unchosen, nobody again', async () => {
    const carla = newPhone();
    expect((await status()).defaultAgentId).toBeNull();
    expect(await write(carla, 'Oi! Vocês abrem no sábado?')).toBe('skipped');
    // Stored and shown to the owner, unread; the contact got nothing.
    const [waiting] = await conversations(ctx, ana);
    expect(waiting).toMatchObject({ contact_number: carla, unread_count: 1 });
    expect((await detail(ctx, ana, waiting!.id)).messages.map((m) => m.sender)).toEqual([
      'contact',
    ]);
    expect(await driver.sentTo(running, phone, carla)).toEqual([]);

    // The clinic's own agent, chosen: the next message is answered with the catalogue's price.
    const created = await post(ctx, '/api/my-agents', CLINIC, { token: ana.token });
    expect(created.statusCode, created.body.slice(0, 300)).toBe(200);
    const clinic = created.json<{ agent: MyAgent }>().agent;
    expect((await choose(clinic.id)).json<{ data: WhatsAppStatus }>().data.defaultAgentId).toBe(
      clinic.id,
    );
    expect(await write(carla, 'Quanto custa a limpeza?')).toBe('sent');
    await settles(async () => {
      const sent = await driver.sentTo(running, phone, carla);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/180/);
    }, WAIT);

    // Nobody again: the next message is kept, unanswered.
    expect((await choose(null)).json<{ data: WhatsAppStatus }>().data.defaultAgentId).toBeNull();
    expect(await write(carla, 'E o clareamento?')).toBe('skipped');
    expect(await driver.sentTo(running, phone, carla)).toHaveLength(1);
  });
  it('a contact who asks for a person gets the handoff message once; the conversation needs the owner until they answer', async () => {
    const davi = newPhone();
    const [clinic] = (await get(ctx, '/api/my-agents', { token: ana.token })).json<{
      agents: MyAgent[];
    }>().agents;
    expect((await choose(clinic!.id)).statusCode).toBe(200);
    const since = running.events.length;
    expect(await write(davi, 'Quero falar com um atendente, por favor')).toBe('sent');
    await settles(
      async () =>
        expect(await driver.sentTo(running, phone, davi)).toEqual([CLINIC.business.handoffMessage]),
      WAIT,
    );
    const [handed] = (await conversations(ctx, ana)).filter((c) => c.contact_number === davi);
    expect(handed).toMatchObject({ needs_human: true });
    expect(handed!.paused_until).not.toBeNull();
    expect(
      running.events
        .slice(since)
        .filter((e) => e.name === 'whatsapp:needs_human' && e.userId === ana.user.id)
        .map((e) => e.payload),
    ).toEqual([{ conversationId: handed!.id }]);

    // Paused: what the contact writes meanwhile waits for the owner; nothing more is sent.
    expect(await write(davi, 'Alô? Tem alguém aí?')).toBe('skipped');
    expect(await driver.sentTo(running, phone, davi)).toHaveLength(1);

    // The owner answers: the conversation no longer needs them.
    const answered = await post(
      ctx,
      `/api/whatsapp/conversations/${handed!.id}/messages`,
      { text: 'Oi Davi, aqui é a Ana da recepção. Como posso ajudar?' },
      { token: ana.token },
    );
    expect(answered.statusCode, answered.body.slice(0, 200)).toBe(200);
    expect(await detail(ctx, ana, handed!.id)).toMatchObject({ needs_human: false });
  });
  it('asked when the business opens, the agent answers from the hours and closed dates it was given', async () => {
    const fabio = newPhone();
    const [clinic] = (await get(ctx, '/api/my-agents', { token: ana.token })).json<{
      agents: MyAgent[];
    }>().agents;
    expect((await choose(clinic!.id)).statusCode).toBe(200);
    expect(await write(fabio, 'vcs abrem dmg?')).toBe('sent');
    expect(await write(fabio, 'Qual o horário de funcionamento?')).toBe('sent');
    await settles(async () => {
      const sent = await driver.sentTo(running, phone, fabio);
      expect(sent).toHaveLength(2);
      // Whatever day the test runs, Sunday is closed, and the week is the clinic's.
      expect(sent[0]).toMatch(/^Domingo: fechado\./);
      expect(sent[1]).toContain('- Segunda-feira a quinta-feira: 8:00–12:00 e 13:00–19:00');
      expect(sent[1]).toContain('- Sábado: 8:00–12:00');
      expect(sent[1]).toMatch(/Agora estamos (abertos|fechados)/);
    }, WAIT);
    const [asked] = (await conversations(ctx, ana)).filter((c) => c.contact_number === fabio);
    expect(asked).toMatchObject({ needs_human: false });
  });
  it('asked about a policy in the clinic’s PDF, the agent answers from it, naming it', async () => {
    const gil = newPhone();
    const [clinic] = (await get(ctx, '/api/my-agents', { token: ana.token })).json<{
      agents: MyAgent[];
    }>().agents;
    const form = new FormData();
    const pdf = fs.readFileSync(path.resolve(EXAMPLES, 'Tabela 2026.pdf'));
    form.append('file', new File([pdf], 'Tabela 2026.pdf', { type: 'application/pdf' }));
    const added = await ctx.app.inject({
      method: 'POST',
      url: `/api/my-agents/${clinic!.id}/documents`,
      payload: form,
      headers: { authorization: `Bearer ${ana.token}` },
    });
    expect(added.statusCode, added.body.slice(0, 300)).toBe(201);
    expect((await choose(clinic!.id)).statusCode).toBe(200);
    expect(await write(gil, 'vcs abrem domingo?')).toBe('sent');
    expect(await write(gil, 'qual a tolerância para atraso?')).toBe('sent');
    await settles(async () => {
      const sent = await driver.sentTo(running, phone, gil);
      expect(sent).toHaveLength(2);
      expect(sent[1]).toBe(
        '*Atrasos*\n\nSegundo o documento “Tabela 2026.pdf”: A tolerância é de 15 minutos. ' +
          'Depois disso, a consulta pode ser remarcada ou encaixada no fim do turno, se houver vaga.',
      );
    }, WAIT);
  });
  it('a tourist asking in English or Spanish is answered in their language from the Portuguese texts', async () => {
    const joe = newPhone();
    const [clinic] = (await get(ctx, '/api/my-agents', { token: ana.token })).json<{
      agents: MyAgent[];
    }>().agents;
    expect((await choose(clinic!.id)).statusCode).toBe(200);
    expect(await write(joe, 'Hi! Is there any parking near the clinic?')).toBe('sent');
    expect(await write(joe, 'how much is a dental cleaning?')).toBe('sent');
    expect(await write(joe, '¿aceptan tarjeta de crédito?')).toBe('sent');
    await settles(async () => {
      const sent = await driver.sentTo(running, phone, joe);
      expect(sent).toHaveLength(3);
      expect(sent[0]).toMatch(/^The details are in Portuguese:\n\n\*Tem estacionamento\?\*/);
      expect(sent[1]).toContain('*Limpeza com aplicação de flúor*');
      expect(sent[1]).toContain('Price: R$180.00 per sessão.');
      expect(sent[2]).toMatch(
        /^Los detalles están en portugués:\n\n\*Quais as formas de pagamento\?\*/,
      );
    }, WAIT);
  });

  it('a patient asking for a diagnosis is handed to the team, not answered from near words', async () => {
    const lia = newPhone();
    const [clinic] = (await get(ctx, '/api/my-agents', { token: ana.token })).json<{
      agents: MyAgent[];
    }>().agents;
    expect((await choose(clinic!.id)).statusCode).toBe(200);
    expect(await write(lia, 'meu dente fica sensível depois do clareamento, o que pode ser?')).toBe(
      'sent',
    );
    await settles(
      async () =>
        expect(await driver.sentTo(running, phone, lia)).toEqual([CLINIC.business.handoffMessage]),
      WAIT,
    );
    const [handed] = (await conversations(ctx, ana)).filter((c) => c.contact_number === lia);
    expect(handed).toMatchObject({ needs_human: true });
  });

  it('a question the agent finds nothing for is handed over too, never answered with a guess', async () => {
    const eva = newPhone();
    const [clinic] = (await get(ctx, '/api/my-agents', { token: ana.token })).json<{
      agents: MyAgent[];
    }>().agents;
    expect((await choose(clinic!.id)).statusCode).toBe(200);
    expect(await write(eva, 'Vocês consertam celular?')).toBe('sent');
    await settles(
      async () =>
        expect(await driver.sentTo(running, phone, eva)).toEqual([CLINIC.business.handoffMessage]),
      WAIT,
    );
    const [handed] = (await conversations(ctx, ana)).filter((c) => c.contact_number === eva);
    expect(handed).toMatchObject({ needs_human: true });
  });
});
