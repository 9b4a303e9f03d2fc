import type { Page } from '@playwright/test';
import { chatReady, chatThroughApi, entries, messagesRegion, signedInUser } from './chat-helpers';
import { expect, test } from './fixtures';

// /auxtrat: the sidebar of other conversations and the Sync Agent QR dialog while the platform's
// number is not connected (the QR and a scanned code continued are whatsapp.spec.ts's, on the
// sandbox). In English, the page's own texts ('Other Auxtrat Conversations', 'Generate New Code', …).

function sidebar(page: Page) {
  return page.getByRole('region', { name: 'Other Auxtrat Conversations' });
}

test('the sidebar lists the other conversation; choosing it loads its messages; Refresh shows a new one (en-US)', async ({
  page,
  api,
}) => {
  const { session } = await signedInUser(page, api, {
    prefix: 'lateral',
    hire: ['auxtrat'],
    language: 'en-US',
  });
  const consulting = await chatThroughApi(
    api,
    session.token,
    'auxtrat',
    'how much is the consulting?',
  );
  await chatThroughApi(
    api,
    session.token,
    'auxtrat',
    'how much is the trademark registration?',
    consulting,
  );
  const payroll = await chatThroughApi(
    api,
    session.token,
    'auxtrat',
    'how much does payroll cost?',
  );

  await page.goto('/auxtrat');
  const messages = messagesRegion(page, 'Messages with Auxtrat');
  await chatReady(messages);
  // The newest conversation is the one shown; the other one is in the sidebar.
  await expect(entries(messages)).toHaveCount(3);
  await expect(entries(messages).nth(1)).toContainText('how much does payroll cost?');
  await expect(entries(messages).nth(2).getByRole('strong').first()).toHaveText('Payroll');

  const others = sidebar(page).getByRole('listitem');
  await expect(others).toHaveCount(1);
  const consultingItem = others.getByRole('button', { name: /Conversation #/ });
  await expect(consultingItem).toContainText(`Conversation #${consulting.slice(-6)}`);
  await expect(consultingItem).toContainText('4 messages');
  await expect(consultingItem.getByRole('time')).toBeVisible();

  await consultingItem.click();
  await chatReady(messages);
  await expect(entries(messages)).toHaveCount(5);
  await expect(entries(messages).nth(1)).toContainText('how much is the consulting?');
  await expect(entries(messages).nth(2).getByRole('strong').first()).toHaveText(
    'Management consulting',
  );
  await expect(entries(messages).nth(2)).toContainText(/R\$\s?1,800\.00/);
  await expect(entries(messages).nth(3)).toContainText('how much is the trademark registration?');
  await expect(messages).not.toContainText('how much does payroll cost?');
  // Now the payroll conversation is the other one.
  await expect(others).toHaveCount(1);
  await expect(others).toContainText(`Conversation #${payroll.slice(-6)}`);
  await expect(others).toContainText('2 messages');

  // A message sent on the chosen conversation continues it.
  // The reply, once done, has the lists read again: the read that counts its 6 messages.
  const listedAfterReply = page.waitForResponse(
    async (r) =>
      r.url().endsWith('/api/chat/conversations?agentName=auxtrat') &&
      ((await r.json()) as { conversations: { messageCount: number }[] }).conversations.some(
        (c) => c.messageCount === 6,
      ),
  );
  const box = page.getByRole('textbox', { name: 'Message to Auxtrat' });
  await box.fill('how much does payroll cost?');
  await box.press('Enter');
  await expect(entries(messages)).toHaveCount(7);
  await expect(entries(messages).nth(6).getByRole('strong').first()).toHaveText('Payroll');

  // A conversation started elsewhere appears on Refresh (once the list the reply refreshed is in).
  await listedAfterReply;
  const refresh = sidebar(page).getByRole('button', { name: 'Refresh' });
  await expect(refresh).not.toHaveAttribute('aria-busy', 'true');
  const third = await chatThroughApi(api, session.token, 'auxtrat', 'what services do you offer?');
  await expect(others).toHaveCount(1);
  await refresh.click();
  await expect(others).toHaveCount(2);
  await expect(others.nth(0)).toContainText(`Conversation #${third.slice(-6)}`);
  await expect(others.nth(1)).toContainText(`Conversation #${payroll.slice(-6)}`);
});

test("a user's first auxtrat chat: 'No other conversations yet', and Sync Agent waits for a message (en-US)", async ({
  page,
  api,
}) => {
  await signedInUser(page, api, { prefix: 'primeira', hire: ['auxtrat'], language: 'en-US' });
  await page.goto('/auxtrat');
  const messages = messagesRegion(page, 'Messages with Auxtrat');
  await chatReady(messages);
  await expect(sidebar(page)).toContainText('No other conversations yet');
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(0);
  const sync = page.getByRole('button', { name: 'Sync Agent' });
  await expect(sync).toBeDisabled();

  const box = page.getByRole('textbox', { name: 'Message to Auxtrat' });
  await box.fill('how much is the consulting?');
  await box.press('Enter');
  await expect(entries(messages).nth(2).getByRole('strong').first()).toHaveText(
    'Management consulting',
  );
  await expect(sync).toBeEnabled();
  // The conversation just made is the current one, not an "other" one.
  const listed = page.waitForResponse((r) =>
    r.url().endsWith('/api/chat/conversations?agentName=auxtrat'),
  );
  await sidebar(page).getByRole('button', { name: 'Refresh' }).click();
  expect((await (await listed).json()) as unknown).toMatchObject({
    conversations: [{ messageCount: 2 }],
  });
  await expect(sidebar(page).getByRole('button', { name: 'Refresh' })).not.toHaveAttribute(
    'aria-busy',
    'true',
  );
  await expect(sidebar(page)).toContainText('No other conversations yet');
});

test('without a connected platform number, Sync Agent says so and shows no QR code (en-US)', async ({
  page,
  api,
}) => {
  const { session } = await signedInUser(page, api, {
    prefix: 'semqr',
    hire: ['auxtrat'],
    language: 'en-US',
  });
  await chatThroughApi(api, session.token, 'auxtrat', 'how much is the consulting?');
  await page.goto('/auxtrat');
  await chatReady(messagesRegion(page, 'Messages with Auxtrat'));
  await page.getByRole('button', { name: 'Sync Agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sync Agent' });
  await expect(dialog.getByRole('alert')).toHaveText(
    "Syncing with WhatsApp isn't available right now: the platform's number is not connected. Please try again later.",
  );
  await expect(dialog.getByRole('img')).toHaveCount(0);
  await expect(dialog.getByRole('link', { name: 'Open in WhatsApp' })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('sync-unavailable-phone.png') });
});
