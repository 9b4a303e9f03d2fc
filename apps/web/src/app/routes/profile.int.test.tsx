// @vitest-environment happy-dom
import type { AccountExport, SessionInfo } from '@contrateia/shared';
import type { Language } from '@contrateia/shared/i18n/languages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import ProfileRoute from '@/app/routes/profile';
import { catchDownloads, emulateDialogCloseRequests } from '@/test/browser';
import { errorResponse, startFakeServer, type ServerRequest } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';
import { renderWithProviders, setLanguage } from '@/test/render-with-providers';

// "Your account" (/profile) against a stand-in server that keeps the account as the real one does:
// name and preferred language, password change, sessions and "sign out elsewhere", "Download my
// data" and "Delete my account". The journeys against the real server are e2e/account.spec.ts.

/** The page's own texts (locales/account/*.json and the shared validation messages). */
const TEXTS = {
  'pt-BR': {
    title: 'Sua conta',
    details: 'Perfil',
    name: 'Nome completo',
    language: 'Idioma preferido',
    save: 'Salvar',
    saving: 'Salvando...',
    nameRequired: 'Nome é obrigatório',
    nameTooShort: 'O nome deve ter pelo menos 2 caracteres',
    passwordForm: 'Alterar senha',
    current: 'Senha atual',
    newPassword: 'Nova senha',
    confirm: 'Confirme a nova senha',
    change: 'Alterar senha',
    mismatch: 'As senhas não coincidem',
    sessions: 'Sessões',
    thisDevice: 'Este aparelho',
    unknownDevice: 'Aparelho desconhecido',
    computer: 'Computador · Último uso em 6 de jan. de 2025',
    phone: 'Celular · Último uso em 5 de jan. de 2025',
    device: 'Aparelho · Último uso em 4 de jan. de 2025',
    signOutElsewhere: 'Sair dos outros aparelhos',
    data: 'Seus dados (LGPD)',
    download: 'Baixar meus dados',
    downloadArchive: 'Baixar meus dados com arquivos (ZIP)',
    archiveStarted: 'O download começou: seu navegador está salvando o arquivo ZIP.',
    preparing: 'Preparando...',
    failed: 'Algo deu errado. Tente novamente.',
    delete: 'Excluir minha conta',
    deleteTitle: 'Excluir sua conta?',
    deleteWarning:
      'Sua conta, os agentes contratados e as conversas serão apagados para sempre. Não é possível desfazer.',
    deletePassword: 'Sua senha',
    deleteConfirm: 'Excluir para sempre',
    deleting: 'Excluindo...',
    cancel: 'Cancelar',
    passwordRequired: 'Senha é obrigatória',
  },
  'es-ES': {
    title: 'Tu cuenta',
    details: 'Perfil',
    name: 'Nombre completo',
    language: 'Idioma preferido',
    save: 'Guardar',
    saving: 'Guardando...',
    nameRequired: 'El nombre es obligatorio',
    nameTooShort: 'El nombre debe tener al menos 2 caracteres',
    passwordForm: 'Cambiar contraseña',
    current: 'Contraseña actual',
    newPassword: 'Contraseña nueva',
    confirm: 'Confirma la contraseña nueva',
    change: 'Cambiar contraseña',
    mismatch: 'Las contraseñas no coinciden',
    sessions: 'Sesiones',
    thisDevice: 'Este dispositivo',
    unknownDevice: 'Dispositivo desconocido',
    computer: 'Ordenador · Última actividad: 6 ene 2025',
    phone: 'Móvil · Última actividad: 5 ene 2025',
    device: 'Dispositivo · Última actividad: 4 ene 2025',
    signOutElsewhere: 'Cerrar las demás sesiones',
    data: 'Tus datos (LGPD)',
    download: 'Descargar mis datos',
    downloadArchive: 'Descargar mis datos con archivos (ZIP)',
    archiveStarted: 'La descarga ha empezado: tu navegador está guardando el archivo ZIP.',
    preparing: 'Preparando...',
    failed: 'Algo ha salido mal. Inténtalo de nuevo.',
    delete: 'Eliminar mi cuenta',
    deleteTitle: '¿Eliminar tu cuenta?',
    deleteWarning:
      'Tu cuenta, los agentes contratados y las conversaciones se borrarán para siempre. No se puede deshacer.',
    deletePassword: 'Tu contraseña',
    deleteConfirm: 'Eliminar para siempre',
    deleting: 'Eliminando...',
    cancel: 'Cancelar',
    passwordRequired: 'La contraseña es obligatoria',
  },
} as const;

/** The server's answers (the shared catalogue's `account` and `errors` sections), per language. */
const SAID = {
  'pt-BR': {
    profileSaved: 'Perfil salvo',
    wrongPassword: 'A senha não está correta',
    passwordChanged: 'Senha alterada. Todas as outras sessões foram encerradas.',
    otherSessionsEnded: '2 outras sessões foram encerradas',
    lastAdmin:
      'Esta é a última conta de administrador e não pode ser excluída. Torne outra conta administradora primeiro.',
    accountDeleted: 'Sua conta e todos os seus dados foram excluídos.',
    server: 'Erro no servidor',
  },
  'es-ES': {
    profileSaved: 'Perfil guardado',
    wrongPassword: 'La contraseña no es correcta',
    passwordChanged: 'Contraseña cambiada. Se han cerrado todas las demás sesiones.',
    otherSessionsEnded: 'Se han cerrado 2 otras sesiones',
    lastAdmin:
      'Esta es la última cuenta de administrador y no se puede eliminar. Haz administradora a otra cuenta primero.',
    accountDeleted: 'Tu cuenta y todos sus datos se han eliminado.',
    server: 'Error del servidor',
  },
} as const;

type TestLanguage = keyof typeof TEXTS;

const PASSWORD = 'segredo1';

/** The server words its answers in the caller's language (plugins/i18n.ts). */
function serverText(request: ServerRequest, key: keyof (typeof SAID)[TestLanguage]): string {
  const language = request.headers.get('Accept-Language') as TestLanguage;
  const texts = SAID[language] as (typeof SAID)[TestLanguage] | undefined;
  if (!texts) throw new Error(`No server texts for Accept-Language ${language}`);
  return texts[key];
}

/** The links the page clicks for the browser to follow (a download), instead of following them. */
function catchLinkClicks(): { href: string; download: boolean }[] {
  const clicks: { href: string; download: boolean }[] = [];
  const spy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicks.push({ href: this.href, download: this.hasAttribute('download') });
  });
  onTestFinished(() => spy.mockRestore());
  return clicks;
}

/** `text` matched literally, inside a larger pattern. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function sessionFixture(fields: Partial<SessionInfo> & Pick<SessionInfo, 'id'>): SessionInfo {
  return {
    browser: null,
    os: null,
    deviceType: 'other',
    createdAt: '2025-01-01T12:00:00.000Z',
    lastSeenAt: '2025-01-01T12:00:00.000Z',
    current: false,
    ...fields,
  };
}

/**
 * /profile of a signed-in user with two other sessions, in `language`, against a stand-in that
 * checks the password as the server does (auth.service.ts) and answers with its status codes
 * and error shapes (plugins/errors.ts).
 */
async function openProfile(language: TestLanguage, { admin = false }: { admin?: boolean } = {}) {
  const server = startFakeServer();
  const signedIn = userFixture(admin ? { role: 'admin', originalRole: 'admin' } : {});
  // Signed in, as login leaves it (lib/session.ts).
  window.localStorage.setItem('token', 'token-da-ana');
  window.localStorage.setItem('user', JSON.stringify(signedIn));
  const account = {
    user: signedIn,
    language: 'pt-BR' as Language,
    password: PASSWORD,
    sessions: [
      sessionFixture({
        id: 'this',
        browser: 'Chrome 131',
        os: 'Linux',
        deviceType: 'desktop',
        lastSeenAt: '2025-01-06T12:00:00.000Z',
        current: true,
      }),
      sessionFixture({
        id: 'phone',
        browser: 'Safari 18',
        os: 'iOS 18.2',
        deviceType: 'mobile',
        lastSeenAt: '2025-01-05T12:00:00.000Z',
      }),
      sessionFixture({ id: 'script', lastSeenAt: '2025-01-04T12:00:00.000Z' }),
    ],
  };
  const wrongPassword = (request: ServerRequest, field: string) => {
    const message = serverText(request, 'wrongPassword');
    return errorResponse(400, { message, errors: { [field]: message } });
  };

  server.on('GET /api/profile', () => ({ user: account.user, language: account.language }));
  server.on('PATCH /api/profile', (request) => {
    account.user = { ...account.user, name: request.body.name.trim() };
    account.language = request.body.language;
    return {
      success: true,
      message: serverText(request, 'profileSaved'),
      user: account.user,
      language: account.language,
    };
  });
  server.on('POST /api/change-password', (request) => {
    if (request.body.currentPassword !== account.password)
      return wrongPassword(request, 'currentPassword');
    account.password = request.body.newPassword;
    account.sessions = account.sessions.filter((s) => s.current);
    return { success: true, message: serverText(request, 'passwordChanged') };
  });
  server.on('GET /api/sessions', () => ({ sessions: account.sessions }));
  server.on('POST /api/sessions/revoke-others', (request) => {
    account.sessions = account.sessions.filter((s) => s.current);
    return { success: true, message: serverText(request, 'otherSessionsEnded') };
  });
  server.on('POST /api/account/delete', (request) => {
    if (request.body.password !== account.password) return wrongPassword(request, 'password');
    if (admin) return errorResponse(409, { message: serverText(request, 'lastAdmin') });
    return { success: true, message: serverText(request, 'accountDeleted') };
  });

  // As the router's loader of this page does (router.tsx, withAccountTexts).
  await setLanguage(language);
  // As the router loads them for /profile, inside the signed-in shell.
  const view = await renderWithProviders(<ProfileRoute />, {
    language,
    route: '/profile',
    texts: ['app', 'account'],
  });
  const t = TEXTS[language];
  // Settled: the account and its sessions have arrived.
  await waitFor(() => expect(screen.getByLabelText(t.name)).toHaveValue('Ana Souza'));
  const sessions = screen.getByRole('region', { name: t.sessions });
  await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(3));
  // Both asked at once, in either order.
  expect(server.calls().toSorted()).toEqual(['GET /api/profile', 'GET /api/sessions']);
  /** The requests made since the page opened. */
  const callsSinceOpening = () => server.calls().slice(2);
  return { server, callsSinceOpening, account, sessions, t, said: SAID[language], ...view };
}

describe.each(['pt-BR', 'es-ES'] as const)('the profile page (%s)', (language) => {
  it('shows the account: name, preferred language, and each session with its device and last use', async () => {
    const { sessions, t } = await openProfile(language);
    expect(screen.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
    const details = screen.getByRole('form', { name: t.details });
    expect(within(details).getByLabelText(t.name)).toHaveValue('Ana Souza');
    expect(within(details).getByLabelText(t.language)).toHaveDisplayValue('Português (Brasil)');

    const [current, phone, unknown] = within(sessions).getAllByRole('listitem');
    expect(current).toHaveTextContent(`Chrome 131 · Linux ${t.thisDevice}`);
    expect(current).toHaveTextContent(new RegExp(`${literal(t.computer)}, \\d{2}:\\d{2}$`));
    expect(phone).toHaveTextContent(/^Safari 18 · iOS 18\.2/);
    expect(phone).toHaveTextContent(new RegExp(`${literal(t.phone)}, \\d{2}:\\d{2}$`));
    expect(phone).not.toHaveTextContent(t.thisDevice);
    expect(unknown).toHaveTextContent(new RegExp(`^${literal(t.unknownDevice)}`));
    expect(unknown).toHaveTextContent(new RegExp(`${literal(t.device)}, \\d{2}:\\d{2}$`));
  });

  it("refuses a name under 2 characters on its field, sending nothing; saves a new one with the server's message", async () => {
    const { server, callsSinceOpening, user, t, said } = await openProfile(language);
    const details = screen.getByRole('form', { name: t.details });
    const name = within(details).getByLabelText(t.name);

    await user.clear(name);
    await user.type(name, ' A ');
    await user.click(within(details).getByRole('button', { name: t.save }));
    await waitFor(() => expect(name).toHaveAccessibleDescription(t.nameTooShort));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(callsSinceOpening()).toEqual([]);

    await user.clear(name);
    await user.type(name, '  Joana Prado ');
    const update = server.hold('PATCH /api/profile');
    await user.click(within(details).getByRole('button', { name: t.save }));
    const pending = await update.next();
    expect(within(details).getByRole('button', { name: t.saving })).toBeDisabled();
    // Trimmed by the shared schema; the language as it was.
    expect(pending.request.body).toEqual({ name: 'Joana Prado', language: 'pt-BR' });
    pending.respond({
      success: true,
      message: said.profileSaved,
      user: userFixture({ name: 'Joana Prado' }),
      language: 'pt-BR',
    });

    await waitFor(() =>
      expect(within(details).getByRole('status')).toHaveTextContent(said.profileSaved),
    );
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(await within(details).findByRole('button', { name: t.save })).toBeEnabled();
    // The header reads the stored user: it shows the new name, after a reload too.
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toMatchObject({
      name: 'Joana Prado',
    });
  });

  it('saves the preferred language the mails are written in', async () => {
    const { server, account, user, t, said } = await openProfile(language);
    const details = screen.getByRole('form', { name: t.details });
    const select = within(details).getByRole('combobox', { name: t.language });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Português (Brasil)', 'English (US)', 'Español (España)']);

    await user.selectOptions(select, 'English (US)');
    await user.click(within(details).getByRole('button', { name: t.save }));
    await waitFor(() =>
      expect(within(details).getByRole('status')).toHaveTextContent(said.profileSaved),
    );
    expect(server.requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      name: 'Ana Souza',
      language: 'en-US',
    });
    expect(account.language).toBe('en-US');
    expect(select).toHaveDisplayValue('English (US)');
  });

  it("changes the password: the confirmation must match, the server's word on the current one lands on its field", async () => {
    const { server, sessions, user, t, said } = await openProfile(language);
    const form = screen.getByRole('form', { name: t.passwordForm });
    const current = within(form).getByLabelText(t.current);
    const newPassword = within(form).getByLabelText(t.newPassword);
    const confirm = within(form).getByLabelText(t.confirm);
    const change = within(form).getByRole('button', { name: t.change });

    // Not matching: refused in the browser.
    await user.type(current, PASSWORD);
    await user.type(newPassword, 'nova-senha-42');
    await user.type(confirm, 'nova-senha-24');
    await user.click(change);
    await waitFor(() => expect(confirm).toHaveAccessibleDescription(t.mismatch));
    expect(confirm).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls()).not.toContain('POST /api/change-password');

    // A wrong current password: the server's message on that field, not as a general error.
    await user.clear(current);
    await user.type(current, 'not-my-password');
    await user.clear(confirm);
    await user.type(confirm, 'nova-senha-42{Enter}');
    await waitFor(() => expect(current).toHaveAccessibleDescription(said.wrongPassword));
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(current).toHaveFocus();
    expect(confirm).not.toHaveAttribute('aria-invalid');
    expect(screen.getAllByText(said.wrongPassword)).toHaveLength(1);
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      {
        currentPassword: 'not-my-password',
        newPassword: 'nova-senha-42',
        confirmPassword: 'nova-senha-42',
      },
    ]);

    await user.clear(current);
    await user.type(current, PASSWORD);
    await user.click(change);
    await waitFor(() =>
      expect(within(form).getByRole('status')).toHaveTextContent(said.passwordChanged),
    );
    for (const field of [current, newPassword, confirm]) {
      expect(field).toHaveValue('');
      expect(field).not.toHaveAttribute('aria-invalid');
    }
    // Every other session ended: the list shows this device alone.
    await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(1));
    expect(within(sessions).getByRole('listitem')).toHaveTextContent(t.thisDevice);
  });

  it('"sign out elsewhere" ends the other sessions and the list shows this device alone', async () => {
    const { callsSinceOpening, sessions, user, t, said } = await openProfile(language);
    const revoke = within(sessions).getByRole('button', { name: t.signOutElsewhere });
    expect(revoke).toBeEnabled();

    await user.click(revoke);
    await waitFor(() =>
      expect(within(sessions).getByRole('status')).toHaveTextContent(said.otherSessionsEnded),
    );
    await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(1));
    expect(within(sessions).getByRole('listitem')).toHaveTextContent(
      `Chrome 131 · Linux ${t.thisDevice}`,
    );
    // Nothing left to end.
    expect(revoke).toBeDisabled();
    expect(callsSinceOpening()).toEqual(['POST /api/sessions/revoke-others', 'GET /api/sessions']);
  });

  it('"Download my data" saves the server\'s export as contrateia-<username>.json', async () => {
    const { server, user, t } = await openProfile(language);
    const downloads = catchDownloads();
    const data = screen.getByRole('region', { name: t.data });
    const exported: AccountExport = {
      exportedAt: '2025-01-07T12:00:00.000Z',
      account: {
        id: userFixture().id,
        name: 'Ana Souza',
        email: 'ana@exemplo.com',
        username: 'ana',
        role: 'user',
        language: 'pt-BR',
        createdAt: '2025-01-01T12:00:00.000Z',
      },
      sessions: [],
      hires: [{ agentName: 'guia', displayName: 'Guia' }],
      conversations: [],
      whatsapp: { phone: null, media: [], conversations: [] },
      myAgents: [],
    };
    const exportRequest = server.hold('GET /api/account/export');
    await user.click(within(data).getByRole('button', { name: t.download }));

    const pending = await exportRequest.next();
    expect(within(data).getByRole('button', { name: t.preparing })).toBeDisabled();
    pending.respond(exported);

    await waitFor(() =>
      expect(downloads.map((file) => file.filename)).toEqual(['contrateia-ana.json']),
    );
    expect(await within(data).findByRole('button', { name: t.download })).toBeEnabled();
    expect(JSON.parse(await downloads[0]!.text())).toEqual(exported);
    expect(within(data).getByRole('alert')).toBeEmptyDOMElement();
  });

  it('"Download my data" shows the server\'s error, or its own when there is no answer, and saves nothing', async () => {
    const { server, user, t, said } = await openProfile(language);
    const downloads = catchDownloads();
    const data = screen.getByRole('region', { name: t.data });
    server.on('GET /api/account/export', () => errorResponse(500, { message: said.server }));

    await user.click(within(data).getByRole('button', { name: t.download }));
    await waitFor(() => expect(within(data).getByRole('alert')).toHaveTextContent(said.server));

    server.on('GET /api/account/export', () => {
      throw new TypeError('Failed to fetch');
    });
    await user.click(within(data).getByRole('button', { name: t.download }));
    await waitFor(() => expect(within(data).getByRole('alert')).toHaveTextContent(t.failed));
    expect(server.calls().filter((call) => call === 'GET /api/account/export')).toHaveLength(2);
    expect(downloads).toEqual([]);
  });

  it('"Download my data with files" hands the ZIP\'s address to the browser to save, and says the download started', async () => {
    const { server, user, t } = await openProfile(language);
    const clicked = catchLinkClicks();
    const data = screen.getByRole('region', { name: t.data });
    const url = '/api/account/export/archive?session=this&expires=1736251500&signature=abc';
    const linkRequest = server.hold('POST /api/account/export/archive-link');
    await user.click(within(data).getByRole('button', { name: t.downloadArchive }));

    const pending = await linkRequest.next();
    expect(within(data).getByRole('button', { name: t.preparing })).toBeDisabled();
    // The JSON download stays as it was.
    expect(within(data).getByRole('button', { name: t.download })).toBeEnabled();
    pending.respond({ success: true, url });

    await waitFor(() =>
      expect(within(data).getByRole('status')).toHaveTextContent(t.archiveStarted),
    );
    // A download link of the browser's: the file goes to disk as it comes, not through the page.
    expect(clicked).toEqual([{ href: new URL(url, window.location.origin).href, download: true }]);
    expect(within(data).getByRole('button', { name: t.downloadArchive })).toBeEnabled();
    expect(within(data).getByRole('alert')).toBeEmptyDOMElement();
  });

  it('"Download my data with files" shows the server\'s error, or its own when there is no answer, and starts nothing', async () => {
    const { server, user, t, said } = await openProfile(language);
    const clicked = catchLinkClicks();
    const data = screen.getByRole('region', { name: t.data });
    server.on('POST /api/account/export/archive-link', () =>
      errorResponse(500, { message: said.server }),
    );
    await user.click(within(data).getByRole('button', { name: t.downloadArchive }));
    await waitFor(() => expect(within(data).getByRole('alert')).toHaveTextContent(said.server));

    server.on('POST /api/account/export/archive-link', () => {
      throw new TypeError('Failed to fetch');
    });
    await user.click(within(data).getByRole('button', { name: t.downloadArchive }));
    await waitFor(() => expect(within(data).getByRole('alert')).toHaveTextContent(t.failed));
    expect(clicked).toEqual([]);
    expect(within(data).getByRole('status')).toBeEmptyDOMElement();
    expect(within(data).getByRole('button', { name: t.downloadArchive })).toBeEnabled();
  });

  it('"Delete my account" asks in a dialog that wants the password; Escape closes it and gives focus back', async () => {
    emulateDialogCloseRequests();
    const { server, user, t, said } = await openProfile(language);
    const remove = screen.getByRole('button', { name: t.delete });

    await user.click(remove);
    let dialog = screen.getByRole('dialog', { name: t.deleteTitle });
    expect(dialog).toHaveTextContent(t.deleteWarning);
    const password = within(dialog).getByLabelText(t.deletePassword);
    expect(password).toHaveAttribute('type', 'password');

    // Required, and checked before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: t.deleteConfirm }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(t.passwordRequired));
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls()).not.toContain('POST /api/account/delete');

    // A wrong one: the server's word on the field, and the account stays.
    await user.type(password, 'not-my-password{Enter}');
    await waitFor(() => expect(password).toHaveAccessibleDescription(said.wrongPassword));
    expect(window.localStorage.getItem('token')).toBe('token-da-ana');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(remove).toHaveFocus();

    // Cancel too; and a new dialog starts empty.
    await user.click(remove);
    dialog = screen.getByRole('dialog', { name: t.deleteTitle });
    expect(within(dialog).getByLabelText(t.deletePassword)).toHaveValue('');
    expect(within(dialog).getByLabelText(t.deletePassword)).not.toHaveAttribute('aria-invalid');
    await user.click(within(dialog).getByRole('button', { name: t.cancel }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(remove).toHaveFocus();
    expect(server.calls().filter((call) => call === 'POST /api/account/delete')).toHaveLength(1);
  });

  it('"Delete my account" of the last administrator shows the server\'s 409 message and keeps the account', async () => {
    const { server, user, location, t, said } = await openProfile(language, { admin: true });
    await user.click(screen.getByRole('button', { name: t.delete }));
    const dialog = screen.getByRole('dialog', { name: t.deleteTitle });
    const password = within(dialog).getByLabelText(t.deletePassword);
    await user.type(password, PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: t.deleteConfirm }));

    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('alert')
          .map((alert) => alert.textContent),
      ).toEqual([said.lastAdmin]),
    );
    expect(server.requests.at(-1)?.body).toEqual({ password: PASSWORD });
    // Still signed in, still here, the dialog open to try again or cancel.
    expect(screen.getByRole('dialog', { name: t.deleteTitle })).toBeInTheDocument();
    expect(await within(dialog).findByRole('button', { name: t.deleteConfirm })).toBeEnabled();
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(location().pathname).toBe('/profile');
    expect(window.localStorage.getItem('token')).toBe('token-da-ana');
    expect(window.localStorage.getItem('user')).not.toBeNull();
  });

  it('"Delete my account" with the password signs out and hands the server\'s message on to /login', async () => {
    const { server, callsSinceOpening, user, location, t, said } = await openProfile(language);
    await user.click(screen.getByRole('button', { name: t.delete }));
    const dialog = screen.getByRole('dialog', { name: t.deleteTitle });
    const deletion = server.hold('POST /api/account/delete');
    await user.type(within(dialog).getByLabelText(t.deletePassword), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: t.deleteConfirm }));

    const pending = await deletion.next();
    expect(within(dialog).getByRole('button', { name: t.deleting })).toBeDisabled();
    expect(pending.request.body).toEqual({ password: PASSWORD });
    pending.respond({ success: true, message: said.accountDeleted });

    expect(
      await screen.findByRole('heading', { name: 'Stand-in page at /login' }),
    ).toBeInTheDocument();
    expect(location().state).toEqual({ message: said.accountDeleted });
    // Nothing of the account stays in this browser, and nothing more is asked of the server.
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(callsSinceOpening()).toEqual(['POST /api/account/delete']);
  });
});
