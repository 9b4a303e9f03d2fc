import { afterAll, beforeAll, expect } from 'vitest';
import type { SandboxPhoneEvent, ServerEventName } from '@contrateia/shared';
import { createEventHub, type HubEvent } from '@/lib/event-hub';
import { until } from './eventually';
import { post, type registerAndLogin } from './factories';
import {
  startFakeWhatsApp,
  type ChatState,
  type FakeWhatsApp,
  type ReadMark,
  type SentText,
} from './fake-whatsapp';
import { createTestApp, type TestContext } from './helpers';
import { repliesOf } from './replies';
import { linkOnFake, linkSandbox, sandboxPhoneEvents, type LinkOptions } from './whatsapp';

// The two transports the reply pipeline's cases run on, driven through the same steps: the
// sandbox (its control API, as a demo drives it) and the real Baileys library against the fake
// WhatsApp server. A suite takes both from `transportDrivers` and runs one table of cases on
// them with `describe.each(drivers)`.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
type AppDeps = NonNullable<Parameters<typeof createTestApp>[0]>;
type WhatsAppDeps = NonNullable<AppDeps['whatsapp']>;
/** The suite's WhatsApp settings, the same on both transports (pacing, takeover, catch-up…). */
export type WhatsAppOptions = Omit<WhatsAppDeps, 'transport' | 'sandboxSecret' | 'wsUrl'>;

/** An app of a test, with what it emitted for accounts' browsers. */
export type Running = {
  ctx: TestContext;
  hub: ReturnType<typeof createEventHub>;
  events: HubEvent[];
  replies: ReturnType<typeof repliesOf>;
};

/** An event hub for an app, and what was emitted on it. */
export function watchedHub(): Pick<Running, 'hub' | 'events'> {
  const hub = createEventHub();
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { hub, events };
}

/** Starts an app of the test that keeps what it emits for browsers. */
export async function startRunning(
  deps: AppDeps,
  options?: Parameters<typeof createTestApp>[1],
): Promise<Running> {
  const watched = watchedHub();
  const ctx = await createTestApp({ ...deps, events: watched.hub }, options);
  return { ctx, ...watched, replies: repliesOf(ctx) };
}

/** The first event `name` of the account from `since` on (matching `match`), once emitted. */
export function nextEvent(
  { hub, events }: Pick<Running, 'hub' | 'events'>,
  userId: string,
  name: ServerEventName,
  since: number,
  match: (payload: Record<string, unknown>) => boolean = () => true,
) {
  return until(
    () =>
      events
        .slice(since)
        .find(
          (e) =>
            e.userId === userId &&
            e.name === name &&
            match(e.payload as unknown as Record<string, unknown>),
        ),
    { what: `the event ${name}`, changes: (onChange) => hub.subscribe(onChange) },
  );
}

/** What a contact's phone saw of the number, in order. */
export type Seen =
  | { kind: 'presence'; state: string }
  | { kind: 'message'; text: string }
  | { kind: 'read'; ids: string[] };

/** A contact's change to a message of its chat, named by its WhatsApp id. */
export type ContactChange =
  | { kind: 'edit'; id: string; text: string }
  | { kind: 'revoke'; id: string }
  /** `ofContact`: the message reacted to is the contact's own (else one the number sent it). */
  | { kind: 'react'; id: string; emoji: string; ofContact: boolean };

/**
 * How a case drives its transport: the same steps, as each does them. A contact's message is
 * stamped with the app's clock on both (the sandbox stamps it so; the fake WhatsApp is told it),
 * and a write resolves once the server has stored it and shown it to the owner.
 */
export type TransportDriver = {
  name: string;
  /** The app's `whatsapp` settings on this transport, with the suite's own. */
  whatsapp: (options?: WhatsAppOptions) => WhatsAppDeps;
  /** Links a new number (returned, digits) to the account, guia answering unless `options` say otherwise. */
  link: (running: Running, account: Account, options?: LinkOptions) => Promise<string>;
  /** The contact (digits) writes `text` to the number `phone`; resolves with its WhatsApp id. */
  contactWrites: (
    running: Running,
    phone: string,
    contact: string,
    text: string,
  ) => Promise<string>;
  /**
   * The contact (digits) writes `text` to the number `phone`; resolves once the transport took it,
   * not waiting for the owner to be shown it (a Sync Agent chat is not shown to the owner).
   */
  contactSends: (running: Running, phone: string, contact: string, text: string) => Promise<void>;
  /** The contact (digits) edits, deletes for everyone or reacts to a message; resolves once sent. */
  contactChanges: (
    running: Running,
    phone: string,
    contact: string,
    change: ContactChange,
  ) => Promise<void>;
  /** The contact known by `lid` (digits) writes; with `pn` (digits) WhatsApp says its number too. */
  lidWrites: (
    running: Running,
    phone: string,
    input: { lid: string; pn?: string; text: string; pushName?: string },
  ) => Promise<void>;
  /** The owner writes `text` to the contact (digits) from the phone itself. */
  ownerWritesFromPhone: (
    running: Running,
    account: Account,
    phone: string,
    contact: string,
    text: string,
  ) => Promise<void>;
  /** WhatsApp tells the number that `lid` is `pn` (digits both); resolves once sent. */
  mapping: (
    running: Running,
    account: Account,
    phone: string,
    input: { lid: string; pn: string },
  ) => Promise<void>;
  /** What the contact (digits) saw of the number `phone`, in order. */
  seen: (running: Running, phone: string, contact: string) => Promise<Seen[]>;
  /** The texts the number sent to the contact (digits), as the contact's phone got them. */
  sentTo: (running: Running, phone: string, contact: string) => Promise<string[]>;
  /** The messages the number sent to the contact (digits), with their WhatsApp ids. */
  sent: (
    running: Running,
    phone: string,
    contact: string,
  ) => Promise<{ id: string; text: string }[]>;
};

export const jidOf = (digits: string) => `${digits}@s.whatsapp.net`;

/** The contact's message `text`, once shown to the owner (stored). */
function stored(running: Running, since: number, text: string) {
  return until(
    () =>
      running.events
        .slice(since)
        .find(
          (e) =>
            e.name === 'whatsapp:new_message' &&
            e.payload.message.sender === 'contact' &&
            e.payload.message.text === text,
        ),
    { what: `"${text}" stored`, changes: (onChange) => running.hub.subscribe(onChange) },
  );
}

/**
 * The suite's two drivers. Starts the fake WhatsApp before the suite and closes it after (call it
 * at the top level of the file). `secret` is the sandbox's control secret; the numbers it links
 * start with `phonePrefix`, unique per suite, so no two suites' numbers meet.
 */
export function transportDrivers({ secret, phonePrefix }: { secret: string; phonePrefix: string }) {
  const bySecret = { 'x-sandbox-secret': secret };
  let sequence = 0;
  /** A phone number (digits) not used before in this run. */
  const newPhone = () => {
    sequence += 1;
    return `${phonePrefix}${String(Date.now() % 1e6).padStart(6, '0')}${String(sequence).padStart(2, '0')}`;
  };

  let fake: FakeWhatsApp | undefined;
  /** What the fake WhatsApp heard from linked numbers, in order. */
  const heard: (
    | ({ kind: 'message' } & SentText)
    | ({ kind: 'presence' } & ChatState)
    | ({ kind: 'read' } & ReadMark)
  )[] = [];
  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    fake.events.on('sent', (sent: SentText) => heard.push({ kind: 'message', ...sent }));
    fake.events.on('chatstate', (state: ChatState) => heard.push({ kind: 'presence', ...state }));
    fake.events.on('read', (read: ReadMark) => heard.push({ kind: 'read', ...read }));
  });
  afterAll(async () => fake?.close());
  const theFake = () => {
    if (!fake) throw new Error('the fake WhatsApp starts before the suite');
    return fake;
  };

  const inbound = async (running: Running, body: Record<string, unknown>, text: string) => {
    const since = running.events.length;
    const res = await post(running.ctx, '/api/whatsapp/sandbox/inbound', { ...body, text });
    expect(res.statusCode).toBe(200);
    await stored(running, since, text);
    return res.json<{ id: string }>().id;
  };

  const sandbox: TransportDriver = {
    name: 'sandbox',
    whatsapp: (options) => ({ ...options, transport: 'sandbox', sandboxSecret: secret }),
    async link({ ctx }, account, options) {
      const phone = newPhone();
      await linkSandbox(ctx, account, phone, options);
      return phone;
    },
    contactWrites: (running, phone, contact, text) =>
      inbound(running, { to: phone, from: jidOf(contact) }, text),
    async contactSends({ ctx }, phone, contact, text) {
      const res = await post(ctx, '/api/whatsapp/sandbox/inbound', {
        to: phone,
        from: jidOf(contact),
        text,
      });
      expect(res.statusCode, res.body).toBe(200);
    },
    async contactChanges({ ctx }, phone, contact, change) {
      const { kind, ...body } = change;
      const res = await post(ctx, `/api/whatsapp/sandbox/${kind}`, {
        to: phone,
        from: jidOf(contact),
        ...(change.kind === 'react' ? { id: change.id, emoji: change.emoji } : body),
      });
      expect(res.statusCode).toBe(200);
    },
    lidWrites: async (running, phone, { lid, pn, text, pushName }) =>
      void (await inbound(
        running,
        {
          to: phone,
          from: `${lid}@lid`,
          ...(pn ? { fromAlt: jidOf(pn) } : {}),
          ...(pushName ? { pushName } : {}),
        },
        text,
      )),
    async ownerWritesFromPhone({ ctx }, account, phone, contact, text) {
      const res = await post(
        ctx,
        `/api/whatsapp/sandbox/phones/${phone}/own-message`,
        { to: jidOf(contact), text },
        { token: account.token },
      );
      expect(res.statusCode).toBe(200);
    },
    async mapping({ ctx }, account, phone, { lid, pn }) {
      const res = await post(
        ctx,
        '/api/whatsapp/sandbox/lid-mapping',
        { to: phone, lid: `${lid}@lid`, pn: jidOf(pn) },
        { token: account.token },
      );
      expect(res.statusCode).toBe(200);
    },
    async seen({ ctx }, phone, contact) {
      const events: SandboxPhoneEvent[] = await sandboxPhoneEvents(ctx, phone, bySecret);
      return events.flatMap((e): Seen[] => {
        if (e.type === 'presence' && e.to === jidOf(contact))
          return [{ kind: 'presence', state: e.state }];
        if (e.type === 'message' && e.to === jidOf(contact) && !e.failed)
          return [{ kind: 'message', text: e.text }];
        if (e.type === 'read' && e.from === jidOf(contact)) return [{ kind: 'read', ids: e.ids }];
        return [];
      });
    },
    sentTo: async (running, phone, contact) =>
      sentTexts(await sandbox.seen(running, phone, contact)),
    async sent({ ctx }, phone, contact) {
      return (await sandboxPhoneEvents(ctx, phone, bySecret)).flatMap((e) =>
        e.type === 'message' && e.to === jidOf(contact) && !e.failed
          ? [{ id: e.id, text: e.text }]
          : [],
      );
    },
  };

  const baileys: TransportDriver = {
    name: 'Baileys and a fake WhatsApp',
    whatsapp: (options) => ({ ...options, transport: 'baileys', wsUrl: theFake().url }),
    async link(running, account, options) {
      const phone = newPhone();
      await linkOnFake(running, theFake(), account, phone, options);
      return phone;
    },
    async contactWrites(running, phone, contact, text) {
      const since = running.events.length;
      const { id } = await theFake().deliverText({
        to: phone,
        from: contact,
        text,
        sentAt: running.ctx.clock.now(),
      });
      await stored(running, since, text);
      return id;
    },
    async contactSends(running, phone, contact, text) {
      await theFake().deliverText({
        to: phone,
        from: contact,
        text,
        sentAt: running.ctx.clock.now(),
      });
    },
    async contactChanges(_running, phone, contact, change) {
      const fake = theFake();
      if (change.kind === 'react')
        await fake.deliverReaction({
          to: phone,
          from: contact,
          id: change.id,
          emoji: change.emoji,
          ofContact: change.ofContact,
        });
      else
        await fake.deliverChange({
          to: phone,
          from: contact,
          id: change.id,
          ...(change.kind === 'edit' ? { text: change.text } : {}),
        });
    },
    async lidWrites(running, phone, { lid, pn, text, pushName }) {
      const since = running.events.length;
      await theFake().deliverFromLid({
        to: phone,
        lid,
        ...(pn ? { pn } : {}),
        text,
        ...(pushName ? { pushName } : {}),
        sentAt: running.ctx.clock.now(),
      });
      await stored(running, since, text);
    },
    async ownerWritesFromPhone(_running, _account, phone, contact, text) {
      await theFake().deliverOwnCopy({ phone, to: contact, text });
    },
    async mapping(_running, _account, phone, { lid, pn }) {
      await theFake().linkedProfile({ phone, lid, pn });
    },
    async seen(_running, phone, contact) {
      return heard.flatMap((h): Seen[] => {
        if (h.from !== phone || h.to !== contact) return [];
        if (h.kind === 'presence') return [{ kind: 'presence', state: h.state ?? '' }];
        if (h.kind === 'message') return [{ kind: 'message', text: h.text ?? '' }];
        return [{ kind: 'read', ids: h.ids }];
      });
    },
    sentTo: async (running, phone, contact) =>
      sentTexts(await baileys.seen(running, phone, contact)),
    async sent(_running, phone, contact) {
      return heard.flatMap((h) =>
        h.kind === 'message' && h.from === phone && h.to === contact
          ? [{ id: h.id, text: h.text ?? '' }]
          : [],
      );
    },
  };

  return { sandbox, baileys, drivers: [sandbox, baileys], newPhone, bySecret, fake: theFake };
}

const sentTexts = (seen: Seen[]) => seen.flatMap((s) => (s.kind === 'message' ? [s.text] : []));
