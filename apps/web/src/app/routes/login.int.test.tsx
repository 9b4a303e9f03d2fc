// @vitest-environment happy-dom
import { sharedMessages } from '@contrateia/shared';
import type { Language } from '@contrateia/shared/i18n/languages';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import LoginRoute from '@/app/routes/login';
import { defaultPublicSettings, errorResponse, startFakeServer } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The sign-in page (its fields' rules, its states and its failure texts) against a stand-in server.
// The whole path, with the real server and the dashboard after it, is e2e/login.spec.ts.

const TEXTS = {
  'pt-BR': {
    identifier: 'Usuário ou e-mail',
    password: 'Senha',
    submit: 'Entrar',
    submitting: 'Entrando...',
    identifierRequired: 'Usuário ou e-mail é obrigatório',
    passwordRequired: 'Senha é obrigatória',
    emailInvalid: 'Informe um endereço de e-mail válido',
    invalidCredentials: 'Usuário/e-mail ou senha inválidos',
  },
  'en-US': {
    identifier: 'Username or Email',
    password: 'Password',
    submit: 'Sign In',
    submitting: 'Signing In...',
    identifierRequired: 'Username or email is required',
    passwordRequired: 'Password is required',
    emailInvalid: 'Please enter a valid email address',
    invalidCredentials: 'Invalid username/email or password',
  },
} as const;

async function openLogin(language: Language = 'pt-BR') {
  const server = startFakeServer();
  const view = await renderWithProviders(<LoginRoute />, { language, route: '/login' });
  return { server, ...view };
}

describe.each(['pt-BR', 'en-US'] as const)('the login form (%s)', (language) => {
  const t = TEXTS[language];

  it('flags both empty fields in the interface language and sends nothing', async () => {
    const { server, user } = await openLogin(language);
    await user.click(screen.getByRole('button', { name: t.submit }));

    const identifier = screen.getByLabelText(t.identifier);
    const password = screen.getByLabelText(t.password);
    expect(await screen.findByText(t.identifierRequired)).toBeVisible();
    expect(identifier).toHaveAttribute('aria-invalid', 'true');
    expect(identifier).toHaveAccessibleDescription(t.identifierRequired);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(t.passwordRequired);
    // The first invalid field takes the focus.
    expect(identifier).toHaveFocus();
    expect(server.calls()).toEqual([]);
  });

  it('wants a valid e-mail once the identifier has an @, and clears an error when its field is edited', async () => {
    const { server, user } = await openLogin(language);
    const identifier = screen.getByLabelText(t.identifier);
    const password = screen.getByLabelText(t.password);
    await user.type(identifier, 'ana@exemplo');
    await user.click(screen.getByRole('button', { name: t.submit }));

    expect(await screen.findByText(t.emailInvalid)).toBeVisible();
    expect(identifier).toHaveAccessibleDescription(t.emailInvalid);
    expect(password).toHaveAccessibleDescription(t.passwordRequired);

    // Editing one field clears that field's error only.
    await user.type(identifier, '.com');
    expect(identifier).not.toHaveAttribute('aria-invalid');
    expect(identifier).toHaveAccessibleDescription('');
    expect(screen.queryByText(t.emailInvalid)).not.toBeInTheDocument();
    expect(password).toHaveAccessibleDescription(t.passwordRequired);
    await user.type(password, 'x');
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(t.passwordRequired)).not.toBeInTheDocument();
    expect(server.calls()).toEqual([]);
  });

  it(`reads "${t.submitting}" and is disabled while the request is under way`, async () => {
    const { server, user } = await openLogin(language);
    const login = server.hold('POST /api/login');
    // A username: no @, so no e-mail rule.
    await user.type(screen.getByLabelText(t.identifier), 'ana');
    await user.type(screen.getByLabelText(t.password), 'segredo1');
    await user.click(screen.getByRole('button', { name: t.submit }));

    const pending = await login.next();
    expect(screen.getByRole('button', { name: t.submitting })).toBeDisabled();
    expect(screen.queryByRole('button', { name: t.submit })).not.toBeInTheDocument();
    // Enter in a field cannot send it twice either.
    await user.type(screen.getByLabelText(t.password), '{Enter}');
    expect(server.calls()).toEqual(['POST /api/login']);

    pending.respond(errorResponse(401, { message: t.invalidCredentials }));
    expect(await screen.findByRole('button', { name: t.submit })).toBeEnabled();
    expect(screen.getByRole('alert')).toHaveTextContent(t.invalidCredentials);
  });
});

describe('signing in', () => {
  it("shows the server's message when the credentials are refused, and stores nothing", async () => {
    const { server, user, location } = await openLogin('en-US');
    server.on('POST /api/login', () =>
      errorResponse(401, { message: 'Invalid username/email or password' }),
    );
    await user.type(screen.getByLabelText('Username or Email'), 'ana');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Invalid username/email or password')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Invalid username\/email or password$/);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(location().pathname).toBe('/login');
    // What was typed stays, ready for another try.
    expect(screen.getByLabelText('Username or Email')).toHaveValue('ana');
  });

  // The server words a refused attempt's wait in the caller's language (the shared catalogue's
  // auth.loginThrottledSeconds and auth.loginThrottled); the page shows it as it comes.
  it.each([
    {
      language: 'pt-BR',
      labels: ['Usuário ou e-mail', 'Senha', 'Entrar'],
      text: 'Tentativas de login demais. Tente novamente em 4 segundos.',
    },
    {
      language: 'en-US',
      labels: ['Username or Email', 'Password', 'Sign In'],
      text: 'Too many failed sign-in attempts. Please try again in 4 seconds.',
    },
    {
      language: 'es-ES',
      labels: ['Usuario o correo electrónico', 'Contraseña', 'Iniciar sesión'],
      text: 'Demasiados intentos fallidos de inicio de sesión. Inténtalo de nuevo en 4 segundos.',
    },
  ] as const)(
    'shows a 429 with its wait as the server words it ($language)',
    async ({ language, labels: [identifier, password, submit], text }) => {
      expect(
        sharedMessages[language].auth.loginThrottledSeconds_other.replace('{{count}}', '4'),
      ).toBe(text);
      const { server, user } = await openLogin(language);
      server.on('POST /api/login', () => {
        const refused = errorResponse(429, { message: text });
        refused.headers.set('Retry-After', '4');
        return refused;
      });
      await user.type(screen.getByLabelText(identifier), 'ana');
      await user.type(screen.getByLabelText(password), 'segredo1');
      await user.click(screen.getByRole('button', { name: submit }));

      expect(await screen.findByText(text)).toBeVisible();
      expect(screen.getByRole('alert')).toHaveTextContent(new RegExp(`^${text}$`));
      expect(screen.getByRole('button', { name: submit })).toBeEnabled();
    },
  );

  it.each([
    {
      failure: 'an answer without a message',
      answer: () => new Response('<html>Bad gateway</html>', { status: 502 }),
      shown: 'Falha no login. Verifique suas credenciais.',
    },
    {
      failure: 'no answer at all',
      answer: () => {
        throw new TypeError('Failed to fetch');
      },
      shown: 'Ocorreu um erro durante o login. Tente novamente.',
    },
  ])("shows the page's own message for $failure", async ({ answer, shown }) => {
    const { server, user } = await openLogin();
    server.on('POST /api/login', answer);
    await user.type(screen.getByLabelText('Usuário ou e-mail'), 'ana');
    await user.type(screen.getByLabelText('Senha'), 'segredo1');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(await screen.findByText(shown)).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(new RegExp(`^${shown}$`));
  });

  it('sends the trimmed identifier in the interface language, stores token and user, and goes to /dashboard', async () => {
    const { server, user, location } = await openLogin();
    const ana = userFixture();
    server.on('POST /api/login', () => ({
      success: true,
      message: 'Que bom ver você de novo, Ana Souza!',
      user: ana,
      token: 'token-da-ana',
    }));
    await user.type(screen.getByLabelText('Usuário ou e-mail'), '  Ana@Exemplo.com ');
    await user.type(screen.getByLabelText('Senha'), ' segredo1 ');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(
      await screen.findByRole('heading', { name: 'Stand-in page at /dashboard' }),
    ).toBeInTheDocument();
    expect(location().pathname).toBe('/dashboard');
    expect(window.localStorage.getItem('token')).toBe('token-da-ana');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(ana);

    const request = server.requests.find((r) => r.url === '/api/login');
    expect(server.calls()).toEqual(['POST /api/login']);
    // The identifier is trimmed and lower-cased by the shared schema; a password is taken as typed.
    expect(request?.body).toEqual({ email: 'ana@exemplo.com', password: ' segredo1 ' });
    expect(request?.headers.get('Accept-Language')).toBe('pt-BR');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.headers.has('Authorization')).toBe(false);
  });
});

describe('signing in to an account made for one agent', () => {
  it("goes to that agent's page instead of the dashboard", async () => {
    const { server, user, location } = await openLogin('en-US');
    const single = userFixture({ singleAgentName: 'auxtrat' });
    server.on('POST /api/login', () => ({
      success: true,
      message: 'Welcome back, Ana Souza!',
      user: single,
      token: 'token-da-loja',
    }));
    await user.type(screen.getByLabelText('Username or Email'), 'ana@exemplo.com');
    await user.type(screen.getByLabelText('Password'), 'segredo1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(
      await screen.findByRole('heading', { name: 'Stand-in page at /auxtrat' }),
    ).toBeInTheDocument();
    expect(location().pathname).toBe('/auxtrat');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(single);
  });
});

describe("the admin's settings on the login page", () => {
  it('shows the title and feature blurbs the admin wrote for the language, the built-in ones where empty', async () => {
    const server = startFakeServer();
    const settings = defaultPublicSettings();
    settings.content.loginTitle['pt-BR'] = 'Bem-vindo à Acme';
    settings.content.loginTitle['en-US'] = 'Welcome to Acme';
    settings.content.features.chat.title['pt-BR'] = 'Converse com a Acme';
    server.on('GET /api/settings/public', () => settings);
    await renderWithProviders(<LoginRoute />, { language: 'pt-BR', route: '/login' });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Bem-vindo à Acme' }),
    ).toBeVisible();
    expect(screen.getByRole('heading', { level: 3, name: 'Converse com a Acme' })).toBeVisible();
    // Left empty: the built-in blurb.
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(3);
    expect(screen.queryByText(/manutenção/)).not.toBeInTheDocument();
  });

  it('says beforehand that only admins sign in while the system is in maintenance', async () => {
    const server = startFakeServer();
    server.on('GET /api/settings/public', () => ({
      ...defaultPublicSettings(),
      maintenanceMode: true,
    }));
    await renderWithProviders(<LoginRoute />, { language: 'en-US', route: '/login' });
    expect(
      await screen.findByText(
        'The system is under maintenance: only administrators can sign in for now. Please come back in a few minutes.',
      ),
    ).toBeVisible();
    // The form stays: an admin signs in.
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it.each([
    ['already known', true],
    ['started after the page was opened', false],
  ])(
    'shows one maintenance notice when a sign-in is refused for it (maintenance %s)',
    async (_case, knownAtFirst) => {
      const server = startFakeServer();
      let maintenance = knownAtFirst;
      server.on('GET /api/settings/public', () => ({
        ...defaultPublicSettings(),
        maintenanceMode: maintenance,
      }));
      server.on('POST /api/login', () =>
        errorResponse(503, {
          message: sharedMessages['en-US'].errors.maintenance,
        }),
      );
      const { user } = await renderWithProviders(<LoginRoute />, {
        language: 'en-US',
        route: '/login',
      });
      await screen.findByRole('button', { name: 'Sign In' });
      maintenance = true;
      await user.type(screen.getByLabelText('Username or Email'), 'bruno@example.com');
      await user.type(screen.getByLabelText('Password'), 'Correct-Horse-42');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));

      // Said once, as the refusal of this attempt (announced), not beside a second notice.
      const notice = await screen.findByText(
        'The system is under maintenance: only administrators can sign in for now. Please come back in a few minutes.',
      );
      expect(notice.closest('[role="alert"]')).not.toBeNull();
      expect(screen.getAllByText(/maintenance/i)).toHaveLength(1);
    },
  );
});

describe('the way to sign up', () => {
  it('offers "Criar uma conta" while registration is open', async () => {
    const server = startFakeServer();
    server.on('GET /api/settings/public', () => defaultPublicSettings());
    await renderWithProviders(<LoginRoute />, { language: 'pt-BR', route: '/login' });
    expect(await screen.findByRole('link', { name: 'Criar uma conta' })).toHaveAttribute(
      'href',
      '/register',
    );
  });

  it('hides "Criar uma conta" once the admin has closed registration', async () => {
    const server = startFakeServer();
    server.on('GET /api/settings/public', () => ({
      ...defaultPublicSettings(),
      registrationEnabled: false,
    }));
    await renderWithProviders(<LoginRoute />, { language: 'pt-BR', route: '/login' });
    await waitFor(() =>
      expect(server.requests.map((request) => request.url)).toContain('/api/settings/public'),
    );
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Criar uma conta' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByText('Ainda não tem conta?')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Esqueceu sua senha?' })).toBeVisible();
  });
});

describe('after a registration', () => {
  it('shows the message, has the new address filled in, and puts the focus on the password', async () => {
    startFakeServer();
    await renderWithProviders(<LoginRoute />, {
      language: 'pt-BR',
      route: '/login',
      routeState: {
        message: 'Cadastro realizado com sucesso! Entre com sua nova conta.',
        email: 'ana@exemplo.com',
      },
    });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Cadastro realizado com sucesso! Entre com sua nova conta.',
    );
    expect(screen.getByLabelText('Usuário ou e-mail')).toHaveValue('ana@exemplo.com');
    expect(screen.getByLabelText('Senha')).toHaveFocus();
  });
});
