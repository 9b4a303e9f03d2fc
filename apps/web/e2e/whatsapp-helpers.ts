import type { BrowserContext, Locator, Page, TestInfo } from '@playwright/test';
import { expect, type Account, type Api } from './fixtures';
import { qrText } from '../../server/test/qr';

// What the WhatsApp journeys share: numbers of their own, screenshots, linking by the QR as a
// phone would, a contact writing through the sandbox, and the page's list and messages.

let phones = 0;
/** A number of our own for each linked phone and each contact (a number links one account only). */
export function newNumber(): string {
  phones += 1;
  return `55119${String(Date.now() % 10_000).padStart(4, '0')}${String(phones).padStart(4, '0')}`;
}

export async function shot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/**
 * Connect, read the QR from the modal's image, open the page it encodes in a second tab (the
 * phone), link `phone` there, and see the first page turn connected with the modal gone.
 */
export async function connectByQr(
  page: Page,
  context: BrowserContext,
  phone: string,
  testInfo: TestInfo,
  /** The agent chosen to answer the contacts, by its name on the page; null leaves nobody. */
  answeredBy: string | null = 'Guia',
): Promise<void> {
  const connection = page.getByRole('region', { name: 'Conexão' });
  await expect(connection.getByRole('status').first()).toHaveText('Não conectado');
  // Live: no word on live updates (it shows only while connecting, reconnecting or offline).
  await expect(connection.getByText(/atualizações ao vivo/i)).toHaveCount(0);
  // Nobody answers the contacts until the owner chooses.
  const nobody = page.getByText(/Ninguém responde seus clientes por enquanto/);
  await expect(nobody).toBeVisible();
  if (answeredBy !== null) {
    await page
      .getByRole('combobox', { name: 'Quem atende seus clientes?' })
      .selectOption(answeredBy);
    await expect(nobody).toHaveCount(0);
  }
  await connection.getByRole('button', { name: 'Conectar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conectar WhatsApp' });
  const image = dialog.getByRole('img', { name: 'QR code para conectar o WhatsApp' });
  await expect(image).toBeVisible();
  await expect(connection.getByRole('status').first()).toHaveText(
    'Escaneie o código com o WhatsApp',
  );
  await shot(page, testInfo, 'qr-modal');
  const url = qrText((await image.getAttribute('src'))!);
  expect(url).toMatch(/\/sandbox\/phone\?pair=/);

  const phonePage = await context.newPage();
  await phonePage.goto(url);
  await phonePage.getByLabel('Número do telefone (com código do país)').fill(`+${phone}`);
  await phonePage.getByRole('button', { name: 'Vincular dispositivo' }).click();
  await expect(phonePage.getByRole('status')).toHaveText(
    `Pronto: o número ${phone} está vinculado. Pode fechar esta página.`,
  );
  await phonePage.close();

  await expect(connection.getByRole('status').first()).toHaveText(`Conectado como +${phone}`);
  await expect(dialog).toHaveCount(0);
  await expect(connection.getByRole('button', { name: 'Desconectar' })).toBeVisible();
}

export type PhoneMessage = { to: string; text: string };

/**
 * The messages the linked phone sent (the agent's replies and the owner's), oldest first: read
 * with the session of the account that linked it (the sandbox answers no one else).
 */
export async function sentByPhone(api: Api, phone: string, token: string): Promise<PhoneMessage[]> {
  const res = await api.get<{
    events: { type: string; to: string; text: string; failed?: string }[];
  }>(`/api/whatsapp/sandbox/phones/${phone}/events`, token);
  if (res.status !== 200) throw new Error(`phone events ${res.status}`);
  // A try WhatsApp refused (`failed`: its error code) did not reach the contact.
  return res.body.events
    .filter((e) => e.type === 'message' && e.failed === undefined)
    .map(({ to, text }) => ({ to: to.replace(/@.*$/, ''), text }));
}

/** A contact writes to the linked phone. */
export async function contactWrites(
  api: Api,
  phone: string,
  contact: string,
  text: string,
  pushName?: string,
): Promise<void> {
  const res = await api.post('/api/whatsapp/sandbox/inbound', {
    to: phone,
    from: `${contact}@s.whatsapp.net`,
    text,
    pushName,
  });
  if (res.status !== 200) throw new Error(`inbound ${res.status}: ${JSON.stringify(res.body)}`);
}

export function conversationItem(page: Page, name: string): Locator {
  return page
    .getByRole('region', { name: 'Conversas', exact: true })
    .getByRole('listitem', { name, exact: true });
}

/** The conversation's own button in its list item (named by the contact, number, last message…). */
export function openButton(item: Locator, name: string): Locator {
  // The name reads the status icon, the contact, "Precisa de você" once handed over, the number…
  return item.getByRole('button', {
    name: new RegExp(`^(\\S+ )?${name}( Precisa de você)? \\+\\d`),
  });
}

export function chatMessages(page: Page): Locator {
  return page.getByRole('list', { name: 'Mensagens', exact: true }).getByRole('listitem');
}

/**
 * A text as the pane shows it: WhatsApp's *bold* and _italic_ marks styled, not typed (an
 * agent's Markdown reply is sent with them).
 */
export function asShown(text: string): string {
  return text
    .replace(/\*([^*\n]+)\*/g, '$1')
    .replace(/(^|\s)_([^_\n]+)_(?=\s|$|[.,;:!?])/g, '$1$2');
}

/**
 * Links a sandbox number to the admin's account (the platform's, the first admin being the
 * default) through the API, as its phone would; returns the number and an unlink, so that the
 * journeys after this one meet the platform as they expect (not connected).
 */
export async function linkPlatform(api: Api, admin: Account) {
  await api.ensureAdminMode(admin);
  const { token } = await api.login(admin);
  expect((await api.post('/api/whatsapp/connect', {}, token)).status).toBe(200);
  // The QR comes once the connection is made, as the page's status shows it.
  let qrCode: string | null = null;
  await expect
    .poll(async () => {
      qrCode = (await api.get<{ data: { qrCode: string | null } }>('/api/whatsapp/status', token))
        .body.data.qrCode;
      return qrCode;
    })
    .not.toBeNull();
  const pair = new URL(qrText(qrCode!)).searchParams.get('pair');
  const phone = newNumber();
  expect((await api.post('/api/whatsapp/sandbox/pair', { token: pair, phone })).status).toBe(200);
  return {
    phone,
    token,
    unlink: async () =>
      expect((await api.post('/api/whatsapp/disconnect', {}, token)).status).toBe(200),
  };
}
