import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxPhoneEvent } from '@contrateia/shared';
import { createEventHub } from '@/lib/event-hub';
import { createTwoInstances, NO_MONITOR, type TestContext } from '../../../test/helpers';
import { settles } from '../../../test/eventually';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { indirectSender, sayToIndirect } from '../../../test/indirect';
import { linkSandbox } from '../../../test/whatsapp';
import { RELAY_LIMITS } from './whatsapp.relay-rules';

/**
 * indirect's relays on two app instances behind one load balancer (PostgreSQL and Redis with
 * TEST_DATABASE_URL and TEST_REDIS_URL, else one PGlite): the limits hold whichever instance each
 * yes reaches, all at once, and a reply through one instance reaches the sender through the other.
 */

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const PHONE = `55429${String(Date.now() % 1e6).padStart(6, '0')}1`;
const RECIPIENT = '5511976540001';
const WRITTEN = '(11) 97654-0001';
const SHOWN = '+55 11 97654 0001';

describe('indirect’s relays on two instances', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let a: TestContext;
  let b: TestContext;
  let admin: Account;

  beforeAll(async () => {
    instances = await createTwoInstances(
      { without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } },
      () => ({ events: createEventHub(), whatsapp: { transport: 'sandbox' } }),
    );
    ({ a, b } = instances);
    admin = await registerAndLogin(a, { name: 'Admin' });
    await linkSandbox(a, admin, PHONE);
  });
  afterAll(async () => instances?.close());

  const sender = indirectSender;
  const say = (ctx: TestContext, account: Account, text: string, conversationId?: string) =>
    sayToIndirect(ctx, account, text, { conversationId });
  const received = async (ctx: TestContext) =>
    (await get(ctx, `/api/whatsapp/sandbox/phones/${PHONE}/events`, { token: admin.token }))
      .json<{ events: SandboxPhoneEvent[] }>()
      .events.filter((e) => e.type === 'message' && e.to === `${RECIPIENT}@s.whatsapp.net`);

  it('four yeses to one number at once, two through each instance: three go, one is refused', async () => {
    const instanceOf = (n: number) => (n % 2 === 0 ? a : b);
    const senders = await Promise.all(
      [0, 1, 2, 3].map((n) => sender(instanceOf(n), `Remetente ${n}`)),
    );
    const shown = await Promise.all(
      senders.map((account, n) =>
        say(instanceOf(n + 1), account, `envie para ${WRITTEN}: oi de ${n}`),
      ),
    );
    const answers = await Promise.all(
      senders.map((account, n) =>
        say(instanceOf(n), account, 'sim', shown[n]!.conversationId).then((r) => r.text),
      ),
    );
    const sent = message('pt-BR', 'whatsappServer.relay.sent', { number: SHOWN });
    const busy = message('pt-BR', 'whatsappServer.relay.recipientBusy');
    expect(answers.filter((text) => text === sent)).toHaveLength(
      RELAY_LIMITS.sendersPerRecipientPerDay,
    );
    expect(answers.filter((text) => text === busy)).toHaveLength(1);
    await settles(async () =>
      expect(await received(b)).toHaveLength(RELAY_LIMITS.sendersPerRecipientPerDay),
    );

    // The number's reply through B reaches one sender's thread (the latest), read through A.
    const reply = await post(b, '/api/whatsapp/sandbox/inbound', {
      to: PHONE,
      from: `${RECIPIENT}@s.whatsapp.net`,
      text: 'Quem é?',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const repliedTo = senders.map((account, n) => ({ account, id: shown[n]!.conversationId }));
    await settles(async () => {
      const texts = await Promise.all(
        repliedTo.map(
          async ({ account, id }) =>
            (await get(a, `/api/chat/conversations/${id}`, { token: account.token })).body,
        ),
      );
      expect(texts.filter((body) => body.includes('Quem é?'))).toHaveLength(1);
    });
  });
});
