import { createGate, startFakeOpenAI, type FakeOpenAI } from '../../server/test/fake-openai';
import { chatReady, entries, messagesRegion, signedInUser } from './chat-helpers';
import { expect, startServer, test as base, type Api, type TestServer } from './fixtures';

// Stop ends a reply while it streams; what arrived is kept and stored as such. The server answers
// through an OpenAI-compatible provider (the fake one), which holds the reply after its first piece
// for as long as the test needs.

const test = base.extend<object, { ai: FakeOpenAI; server: TestServer }>({
  ai: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const ai = await startFakeOpenAI();
      await use(ai);
      await ai.close();
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ ai }, use) => {
      const { server, stop } = await startServer({
        AI_PROVIDER: 'openai',
        AI_BASE_URL: ai.url,
        AI_MODEL: 'fake-model',
      });
      await use(server);
      await stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

/** The messages of the user's latest conversation with guia, as the server has stored them. */
async function latestGuiaMessages(api: Api, token: string) {
  const list = await api.get<{ conversations: { id: string }[] }>(
    '/api/chat/conversations?agentName=guia',
    token,
  );
  const id = list.body.conversations[0]?.id;
  if (!id) return null;
  const one = await api.get<{
    conversation: { messages: { sender: string; text: string; stopped?: boolean }[] };
  }>(`/api/chat/conversations/${id}`, token);
  return one.body.conversation.messages;
}

test('Stop keeps what arrived, marked stopped, stored so; the next message continues the conversation (en-US)', async ({
  page,
  api,
  ai,
}) => {
  const { session } = await signedInUser(page, api, { prefix: 'parar', language: 'en-US' });
  await page.goto('/guia');
  const messages = messagesRegion(page, 'Messages with Guide');
  await chatReady(messages);

  const gate = createGate();
  ai.setOptions({
    chunks: ['Once upon a time', ' there was', ' a long story'],
    hold: { afterChunks: 1, until: gate.opened },
  });
  const box = page.getByRole('textbox', { name: 'Message to Guide' });
  await box.fill('tell me a long story');
  await box.press('Enter');
  await expect(entries(messages).nth(2)).toContainText('Once upon a time');

  const stop = page.getByRole('button', { name: 'Stop' });
  await stop.click();
  await expect(stop).toHaveCount(0);
  const reply = entries(messages).nth(2);
  await expect(reply).toContainText('Once upon a time');
  await expect(reply).toContainText('Stopped: the reply was cut short here.');
  await expect(reply).not.toContainText('there was');
  // The list has the new conversation with both messages, without a refresh: the page reads its
  // lists again after Stop, and the server answers once the stopped reply is stored.
  const list = page.getByRole('region', { name: 'Conversations', exact: true });
  await expect(list.locator('[aria-current="true"]')).toContainText('2 messages');

  // Stored as it arrived, marked stopped (the provider never sent the rest: its gate is shut).
  await expect
    .poll(() => latestGuiaMessages(api, session.token))
    .toEqual([
      expect.objectContaining({ sender: 'user', text: 'tell me a long story' }),
      expect.objectContaining({ sender: 'bot', text: 'Once upon a time', stopped: true }),
    ]);
  gate.open();

  // The next message goes into the same conversation and is answered.
  ai.setOptions({ chunks: ['The end.'] });
  await box.fill('and then?');
  await box.press('Enter');
  await expect(entries(messages).nth(4)).toContainText('The end.');
  await page.reload();
  await chatReady(messages);
  await expect(entries(messages)).toHaveCount(5);
  await expect(entries(messages).nth(2)).toContainText('Stopped: the reply was cut short here.');
});

test("the dashboard's quick chat streams too, and Stop keeps what arrived, stored in the latest conversation (en-US)", async ({
  page,
  api,
  ai,
}) => {
  const { session } = await signedInUser(page, api, { prefix: 'painel', language: 'en-US' });
  await page.goto('/dashboard');
  const panel = page.getByRole('region', { name: 'Quick chat' }).first();
  const box = panel.getByRole('textbox', { name: 'Message to Guide' });

  const gate = createGate();
  ai.setOptions({
    chunks: ['A first part', ' and the rest'],
    hold: { afterChunks: 1, until: gate.opened },
  });
  await box.fill('tell me something long');
  await box.press('Enter');
  await expect(panel).toContainText('A first part');
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(panel).toContainText('Stopped: the reply was cut short here.');
  await expect(panel).not.toContainText('and the rest');

  await expect
    .poll(() => latestGuiaMessages(api, session.token))
    .toEqual([
      expect.objectContaining({ sender: 'user', text: 'tell me something long' }),
      expect.objectContaining({ sender: 'bot', text: 'A first part', stopped: true }),
    ]);
  gate.open();

  // The exchange is on guia's page too, marked stopped there as well.
  await page.goto('/guia');
  const messages = messagesRegion(page, 'Messages with Guide');
  await chatReady(messages);
  await expect(entries(messages).nth(2)).toContainText('Stopped: the reply was cut short here.');
});
