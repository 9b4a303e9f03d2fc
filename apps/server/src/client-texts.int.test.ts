import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  defaultSettings,
  type AdminAgent,
  type AdminAgentResponse,
  type AdminSettingsResponse,
  type AiSettings,
  type ConversationsResponse,
  type CreateAgentInput,
  type ListImagesResponse,
  type SandboxPhoneEvent,
  type WhatsAppConversation,
  type WhatsAppConversationDetail,
} from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../test/helpers';
import {
  completeRegistration,
  get,
  login,
  message,
  post,
  registerAndLogin,
  requestCode,
  uniqueEmail,
  UNLIMITED_ROUTES,
} from '../test/factories';
import { makeImage, uploaded } from '../test/images';
import { eventually } from '../test/eventually';
import { linkSandbox } from '../test/whatsapp';

// A JSON string may carry half of a surrogate pair ("\ud83d", the first half of
// an emoji): JSON.parse makes it a lone surrogate, which no character encoding can write.
// PostgreSQL's jsonb refuses it (22P02) and text columns turn it into U+FFFD, so it used to end
// in a 500 or in a text other than the one sent. Every text a client sends is refused instead,
// with the field named, and nothing is stored. The bodies go out with JSON.stringify, which
// writes a lone surrogate as the escape `\ud83d`: the server receives exactly what a hostile
// client would send.

const HALF_EMOJI = '\ud83d';
type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** A 400 naming only `field`, with the message of ill-formed text in pt-BR. */
function expectRefused(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json<{ errors: Record<string, string> }>().errors).toEqual({
    [field]: message('pt-BR', 'validation.textInvalid'),
  });
}

/** `value` with the text at `path` (dot-separated, indices as numbers) replaced by `text`. */
function withTextAt<T>(value: T, path: string, text: string): T {
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys.at(-1)!] = text;
  return copy as T;
}

const same = (text: string) => ({ 'pt-BR': text, 'en-US': text, 'es-ES': text });

describe('a lone surrogate in a text', () => {
  let ctx: TestContext;
  let admin: Account;
  let member: Account;
  const pt = { language: 'pt-BR' as const };

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox' },
    });
    // The first account of a database is its admin.
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
    member = await registerAndLogin(ctx, { name: 'Bruno' });
  });
  afterAll(async () => ctx?.close());

  it('is refused in the name of a registration, and no account is made', async () => {
    const email = uniqueEmail('surrogate');
    const { code } = await requestCode(ctx, { email });
    expectRefused(
      await completeRegistration(ctx, { email, otp: code, name: `Maria ${HALF_EMOJI}`, ...pt }),
      'name',
    );
    expect((await login(ctx, { identifier: email, password: 'Correct-Horse-42' })).statusCode).toBe(
      401,
    );
  });

  it('is refused in a chat message, and no conversation is stored', async () => {
    expectRefused(
      await post(
        ctx,
        '/api/chat/message',
        { message: `Olá ${HALF_EMOJI}`, agentName: 'guia' },
        { token: member.token, ...pt },
      ),
      'message',
    );
    const res = await get(ctx, '/api/chat/conversations', { token: member.token });
    expect(res.json<ConversationsResponse>().conversations).toEqual([]);
  });

  it('is refused in the admin content settings, which stay as they were', async () => {
    const before = (
      await get(ctx, '/api/admin/settings', { token: admin.token })
    ).json<AdminSettingsResponse>();
    for (const field of ['appTitle.pt-BR', 'features.chat.description.es-ES']) {
      const body = withTextAt(defaultSettings().content, field, `Loja ${HALF_EMOJI}`);
      expectRefused(
        await post(ctx, '/api/admin/settings/content', body, { token: admin.token, ...pt }),
        field,
      );
    }
    expect((await get(ctx, '/api/admin/settings', { token: admin.token })).json()).toEqual(before);
  });

  it('is refused in the language model settings, which stay as they were', async () => {
    const before = (await get(ctx, '/api/admin/ai', { token: admin.token })).json<AiSettings>();
    const body = {
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: `gpt ${HALF_EMOJI}`,
      apiKey: 'sk-test',
      timeoutMs: 60_000,
    };
    expectRefused(await post(ctx, '/api/admin/ai', body, { token: admin.token, ...pt }), 'model');
    expect((await get(ctx, '/api/admin/ai', { token: admin.token })).json()).toEqual(before);
  });

  describe("in an agent's texts", () => {
    const agentBody = (name: string): CreateAgentInput => ({
      name,
      displayName: same('Loja da Rua'),
      description: same('Responde sobre a loja'),
      configuration: {
        instructions: 'Responda sobre a loja.',
        welcomeMessage: same('Olá!'),
        model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
        knowledge: [
          {
            language: 'pt-BR',
            title: 'Horário',
            content: 'De segunda a sexta, das 8h às 17h.',
            keywords: ['horário'],
            link: '/dashboard',
          },
        ],
        capabilities: { skills: ['catalogue'], fallback: 'notFound' },
        catalogue: {
          currency: 'BRL',
          items: [
            {
              id: 'cafe',
              name: same('Café'),
              description: same('Coado na hora'),
              keywords: { 'pt-BR': ['café'], 'en-US': ['coffee'], 'es-ES': ['café'] },
              price: 5,
              unit: 'once',
            },
          ],
        },
      },
      isActive: true,
    });
    const TEXTS = [
      'displayName.pt-BR',
      'description.en-US',
      'configuration.instructions',
      'configuration.welcomeMessage.es-ES',
      'configuration.model.model',
      'configuration.knowledge.0.title',
      'configuration.knowledge.0.content',
      'configuration.knowledge.0.keywords.0',
      'configuration.knowledge.0.link',
      'configuration.catalogue.items.0.name.pt-BR',
      'configuration.catalogue.items.0.description.en-US',
      'configuration.catalogue.items.0.keywords.es-ES.0',
    ];
    const agentNames = async () =>
      (await get(ctx, '/api/admin/agents', { token: admin.token }))
        .json<{ agents: AdminAgent[] }>()
        .agents.map((a) => a.name);

    it.each(TEXTS)('refuses %s on create, and makes no agent', async (field) => {
      const name = `loja-${TEXTS.indexOf(field)}`;
      expectRefused(
        await post(
          ctx,
          '/api/admin/agents',
          withTextAt(agentBody(name), field, `Café ${HALF_EMOJI}`),
          { token: admin.token, ...pt },
        ),
        field,
      );
      expect(await agentNames()).not.toContain(name);
    });

    it('takes a model name of up to 200 characters, and refuses a longer one on its field', async () => {
      const longest = 'm'.repeat(200);
      const created = await post(
        ctx,
        '/api/admin/agents',
        withTextAt(agentBody('loja-modelo'), 'configuration.model.model', longest),
        { token: admin.token },
      );
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json<AdminAgentResponse>().agent.configuration.model.model).toBe(longest);
      const res = await post(
        ctx,
        '/api/admin/agents',
        withTextAt(agentBody('loja-modelo-longo'), 'configuration.model.model', 'm'.repeat(201)),
        { token: admin.token, ...pt },
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ errors: Record<string, string> }>().errors).toEqual({
        'configuration.model.model': message('pt-BR', 'adminValidation.aiModelInvalid'),
      });
      expect(await agentNames()).not.toContain('loja-modelo-longo');
    });

    it('refuses each on edit, and the agent stays as it was', async () => {
      const created = await post(ctx, '/api/admin/agents', agentBody('loja-editada'), {
        token: admin.token,
      });
      expect(created.statusCode, created.body).toBe(200);
      const agent = created.json<AdminAgentResponse>().agent;
      const { name: _name, ...edit } = agentBody('loja-editada');
      for (const field of TEXTS) {
        const res = await ctx.app.inject({
          method: 'PUT',
          url: `/api/admin/agents/${agent.id}`,
          payload: JSON.stringify(withTextAt(edit, field, `Café ${HALF_EMOJI}`)),
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${admin.token}`,
            'accept-language': 'pt-BR',
          },
        });
        expectRefused(res, field);
      }
      const now = (await get(ctx, '/api/admin/agents', { token: admin.token }))
        .json<{ agents: AdminAgent[] }>()
        .agents.find((a) => a.id === agent.id);
      expect(now).toEqual(agent);
    });
  });

  it("is refused in an image's title and alt text, which stay as they were", async () => {
    const id = await uploaded(ctx, {
      file: await makeImage('png'),
      name: 'praia.png',
      token: admin.token,
      fields: { title: 'Praia', altText: 'Uma praia' },
    });
    for (const field of ['title', 'altText']) {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/images/${id}`,
        payload: JSON.stringify({ [field]: `Praia ${HALF_EMOJI}` }),
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${admin.token}`,
          'accept-language': 'pt-BR',
        },
      });
      expectRefused(res, field);
    }
    const image = (await get(ctx, '/api/images', { token: admin.token }))
      .json<ListImagesResponse>()
      .images.find((i) => i.id === id);
    expect(image).toMatchObject({ title: 'Praia', altText: 'Uma praia' });
  });

  describe('on WhatsApp', () => {
    const phone = '5511977776666';
    const contactJid = '5511955554444@s.whatsapp.net';
    let owner: Account;
    let conversationId: string;

    const phoneMessages = async () =>
      // The phone's events are its linked account's.
      (await get(ctx, `/api/whatsapp/sandbox/phones/${phone}/events`, { token: owner.token }))
        .json<{ events: SandboxPhoneEvent[] }>()
        .events.filter((e) => e.type === 'message');

    beforeAll(async () => {
      owner = await registerAndLogin(ctx, { name: 'Carla' });
      await linkSandbox(ctx, owner, phone);
      // Nobody answers (the contact is not on the whitelist): the test watches only what the owner sends.
      expect(
        (await post(ctx, '/api/whatsapp/settings', { whitelistMode: true }, { token: owner.token }))
          .statusCode,
      ).toBe(200);
      expect(
        (
          await post(ctx, '/api/whatsapp/sandbox/inbound', {
            to: phone,
            from: contactJid,
            text: 'Oi',
          })
        ).statusCode,
      ).toBe(200);
      const list = (await get(ctx, '/api/whatsapp/conversations', { token: owner.token })).json<{
        data: WhatsAppConversation[];
      }>().data;
      conversationId = list[0]!.id;
    });

    it("is refused in the owner's message to a contact (not 'not connected'), and nothing is sent or stored", async () => {
      const sentBefore = await phoneMessages();
      const res = await post(
        ctx,
        `/api/whatsapp/conversations/${conversationId}/messages`,
        { text: `Bom dia ${HALF_EMOJI}` },
        { token: owner.token, ...pt },
      );
      expectRefused(res, 'text');
      expect(await phoneMessages()).toEqual(sentBefore);
      const detail = (
        await get(ctx, `/api/whatsapp/conversations/${conversationId}`, { token: owner.token })
      ).json<{ data: WhatsAppConversationDetail }>().data;
      expect(detail.messages.filter((m) => m.text.startsWith('Bom dia'))).toEqual([]);
      // Still connected: a well-formed message goes out.
      const fine = await post(
        ctx,
        `/api/whatsapp/conversations/${conversationId}/messages`,
        { text: 'Bom dia 😀' },
        { token: owner.token },
      );
      expect(fine.statusCode, fine.body).toBe(200);
      // Stored, then sent by its job: it reaches the phone a moment after the answer.
      await eventually(
        async () => (await phoneMessages()).some((m) => m.text === 'Bom dia 😀'),
        'the well-formed message on the phone',
      );
      expect((await phoneMessages()).at(-1)).toMatchObject({ to: contactJid, text: 'Bom dia 😀' });
    });

    it("is refused at the sandbox's edge in what a contact writes and the name it gives", async () => {
      const before = (
        await get(ctx, `/api/whatsapp/conversations/${conversationId}`, { token: owner.token })
      ).json<{ data: WhatsAppConversationDetail }>().data;
      expectRefused(
        await post(
          ctx,
          '/api/whatsapp/sandbox/inbound',
          { to: phone, from: contactJid, text: `Oi ${HALF_EMOJI}` },
          pt,
        ),
        'text',
      );
      expectRefused(
        await post(
          ctx,
          '/api/whatsapp/sandbox/inbound',
          { to: phone, from: contactJid, text: 'Oi de novo', pushName: `Zé ${HALF_EMOJI}` },
          pt,
        ),
        'pushName',
      );
      const after = (
        await get(ctx, `/api/whatsapp/conversations/${conversationId}`, { token: owner.token })
      ).json<{ data: WhatsAppConversationDetail }>().data;
      expect(after.messages).toEqual(before.messages);
      expect(after.contact_name).toBe(before.contact_name);
    });
  });

  it('is told apart from a whole emoji, which every text takes', async () => {
    const res = await post(
      ctx,
      '/api/chat/message',
      { message: 'Olá 😀', agentName: 'guia' },
      { token: member.token },
    );
    expect(res.statusCode, res.body).toBe(200);
  });
});
