// @vitest-environment happy-dom
import type { MonitorActionResponse } from '@contrateia/shared/monitor/monitor.schemas';
import type { Language } from '@contrateia/shared/i18n/languages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QuickActions } from '@/features/monitor/components/quick-actions';
import { emulateDialogCloseRequests } from '@/test/browser';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// The monitor's quick actions against a stand-in API answering as
// POST /api/monitor/actions/{action} does: each asks first, then says what the server did.

const ACTION = 'POST /api/monitor/actions/:action';

async function openActions({
  language = 'en-US',
  answer,
}: {
  language?: Language;
  answer?: (action: string) => MonitorActionResponse | Response;
} = {}) {
  const server = startFakeServer();
  if (answer) server.on(ACTION, ({ url }) => answer(url.split('/').at(-1) ?? ''));
  const view = await renderWithProviders(<QuickActions email="bia@exemplo.com" />, {
    language,
    route: '/monitor',
    texts: ['monitor'],
  });
  return { server, ...view };
}

const actionCalls = (server: FakeServer) =>
  server.calls().filter((call) => call.startsWith('POST /api/monitor/actions/'));

describe('the quick actions', () => {
  it('asks before removing expired sessions and codes, then says how many went', async () => {
    const { server, user } = await openActions({
      answer: () => ({
        success: true,
        action: 'cleanup-sessions',
        removed: { sessions: 3, codes: 5 },
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Remove expired sessions and codes' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove expired sessions and codes?' });
    expect(dialog).toHaveTextContent(
      'Expired sessions and used or expired e-mail codes are deleted. No one who is signed in is signed out.',
    );
    expect(actionCalls(server)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removed 3 sessions and 5 codes.')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Removed 3 sessions and 5 codes.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(actionCalls(server)).toEqual(['POST /api/monitor/actions/cleanup-sessions']);
    expect(server.requests.at(-1)?.body).toBeUndefined();
  });

  it('counts one of each, and none, in words (pt-BR)', async () => {
    const removed = [
      { sessions: 1, codes: 1 },
      { sessions: 0, codes: 0 },
    ];
    const { user } = await openActions({
      language: 'pt-BR',
      answer: () => ({
        success: true,
        action: 'cleanup-sessions',
        removed: removed.shift() ?? { sessions: 0, codes: 0 },
      }),
    });
    const run = async () => {
      await user.click(screen.getByRole('button', { name: 'Remover sessões e códigos expirados' }));
      await user.click(screen.getByRole('button', { name: 'Remover' }));
    };
    await run();
    expect(await screen.findByText('Removidos: 1 sessão e 1 código.')).toBeVisible();
    await run();
    expect(await screen.findByText('Removidos: 0 sessões e 0 códigos.')).toBeVisible();
  });

  it('sends a test e-mail to the admin, and says where it went', async () => {
    const { server, user } = await openActions({
      answer: () => ({ success: true, action: 'test-email', to: 'bia@exemplo.com', mode: 'smtp' }),
    });
    await user.click(screen.getByRole('button', { name: 'Send a test e-mail to me' }));
    const dialog = screen.getByRole('dialog', { name: 'Send a test e-mail?' });
    expect(dialog).toHaveTextContent('A test e-mail goes to bia@exemplo.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Test e-mail sent to bia@exemplo.com.')).toBeVisible();
    expect(actionCalls(server)).toEqual(['POST /api/monitor/actions/test-email']);
  });

  it('says the test e-mail was written to the server log when mail is in log mode (es-ES)', async () => {
    const { user } = await openActions({
      language: 'es-ES',
      answer: () => ({ success: true, action: 'test-email', to: 'bia@exemplo.com', mode: 'log' }),
    });
    await user.click(screen.getByRole('button', { name: 'Enviarme un correo de prueba' }));
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(
      await screen.findByText(
        'Correo de prueba para bia@exemplo.com escrito en el registro del servidor: el correo está en modo de registro.',
      ),
    ).toBeVisible();
  });

  it.each([
    { reconnected: 2, text: '2 connections asked to reconnect.' },
    { reconnected: 1, text: '1 connection asked to reconnect.' },
    { reconnected: 0, text: 'No failed WhatsApp connections to reconnect.' },
  ])('reconnects failed WhatsApp connections: $text', async ({ reconnected, text }) => {
    const { server, user } = await openActions({
      answer: () => ({ success: true, action: 'reconnect-whatsapp', reconnected }),
    });
    await user.click(screen.getByRole('button', { name: 'Reconnect failed WhatsApp connections' }));
    const dialog = screen.getByRole('dialog', { name: 'Reconnect failed WhatsApp connections?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reconnect' }));
    expect(await screen.findByText(text)).toBeVisible();
    expect(actionCalls(server)).toEqual(['POST /api/monitor/actions/reconnect-whatsapp']);
  });

  it('does nothing when cancelled, by the button or Esc, and gives the focus back', async () => {
    emulateDialogCloseRequests();
    const { server, user } = await openActions();
    const open = screen.getByRole('button', { name: 'Send a test e-mail to me' });
    await user.click(open);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Send a test e-mail?' })).toBeVisible();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();
    expect(actionCalls(server)).toEqual([]);
  });

  it("shows a failure in the dialog with the server's reason, and lets it be tried again", async () => {
    let fail = true;
    const { server, user } = await openActions({
      answer: () =>
        fail
          ? errorResponse(502, { message: 'The mail server refused the message' })
          : { success: true, action: 'test-email', to: 'bia@exemplo.com', mode: 'smtp' },
    });
    await user.click(screen.getByRole('button', { name: 'Send a test e-mail to me' }));
    const dialog = screen.getByRole('dialog', { name: 'Send a test e-mail?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to send the test e-mail: The mail server refused the message',
    );
    expect(screen.getByRole('status')).toBeEmptyDOMElement();

    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Test e-mail sent to bia@exemplo.com.')).toBeVisible();
    expect(actionCalls(server)).toHaveLength(2);
  });

  it.each([
    {
      button: 'Remove expired sessions and codes',
      confirm: 'Remove',
      failure: 'Failed to remove expired sessions and codes',
    },
    {
      button: 'Reconnect failed WhatsApp connections',
      confirm: 'Reconnect',
      failure: 'Failed to reconnect the WhatsApp connections',
    },
  ])('says "$failure" when the server cannot be reached', async ({ button, confirm, failure }) => {
    const { user } = await openActions({
      answer: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await user.click(screen.getByRole('button', { name: button }));
    await user.click(screen.getByRole('button', { name: confirm }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `${failure}: the server could not be reached. Check your connection.`,
    );
  });

  it('says it is working while the server acts, and asks only once however often it is pressed', async () => {
    const { server, user } = await openActions();
    const held = server.hold(ACTION);
    await user.click(screen.getByRole('button', { name: 'Remove expired sessions and codes' }));
    const confirm = screen.getByRole('button', { name: 'Remove' });
    await user.click(confirm);
    const pending = await held.next();
    expect(confirm).toHaveTextContent('Working...');
    expect(confirm).toHaveAttribute('aria-disabled', 'true');
    expect(confirm).toHaveFocus();
    await user.click(confirm);
    expect(actionCalls(server)).toHaveLength(1);
    pending.respond({
      success: true,
      action: 'cleanup-sessions',
      removed: { sessions: 0, codes: 2 },
    });
    expect(await screen.findByText('Removed 0 sessions and 2 codes.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
