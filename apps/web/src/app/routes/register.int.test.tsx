// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import RegisterRoute from '@/app/routes/register';
import {
  defaultPublicSettings,
  errorResponse,
  startFakeServer,
  type FakeServer,
} from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// Registration against a stand-in server: step 1's rules, the code step, its resend countdown and
// the server's code errors. The whole path with real mail is e2e/registration.spec.ts.

const TEXTS = {
  'pt-BR': {
    title: 'Criar conta',
    name: 'Nome completo',
    email: 'Endereço de e-mail',
    password: 'Senha',
    confirm: 'Confirmar senha',
    send: 'Enviar código de verificação',
    nameRequired: 'Nome é obrigatório',
    nameTooShort: 'O nome deve ter pelo menos 2 caracteres',
    emailRequired: 'E-mail é obrigatório',
    emailInvalid: 'Informe um endereço de e-mail válido',
    passwordRequired: 'Senha é obrigatória',
    passwordTooShort: 'A senha deve ter pelo menos 6 caracteres',
    confirmRequired: 'Confirmação de senha é obrigatória',
    mismatch: 'As senhas não coincidem',
  },
  'en-US': {
    title: 'Create Account',
    name: 'Full Name',
    email: 'Email Address',
    password: 'Password',
    confirm: 'Confirm Password',
    send: 'Send Verification Code',
    nameRequired: 'First name is required',
    nameTooShort: 'Name must be at least 2 characters',
    emailRequired: 'Email is required',
    emailInvalid: 'Please enter a valid email address',
    passwordRequired: 'Password is required',
    passwordTooShort: 'Password must be at least 6 characters',
    confirmRequired: 'Password confirmation is required',
    mismatch: 'Passwords do not match',
  },
} as const;

/** The languages these tests have texts for. */
type Language = keyof typeof TEXTS;

const DETAILS = {
  name: 'Ana Souza',
  email: 'ana@exemplo.com',
  password: 'segredo1',
};

async function openRegister(language: Language = 'pt-BR') {
  const server = startFakeServer();
  const view = await renderWithProviders(<RegisterRoute />, {
    language,
    route: '/register',
    texts: ['register'],
  });
  return { server, ...view };
}

function fields(language: Language) {
  const t = TEXTS[language];
  return {
    name: screen.getByLabelText(t.name),
    email: screen.getByLabelText(t.email),
    password: screen.getByLabelText(t.password),
    confirm: screen.getByLabelText(t.confirm),
  };
}

/** Fills step 1 with valid details and sends the code; resolves once step 2 shows (pt-BR). */
async function reachCodeStep(server: FakeServer, user: UserEvent) {
  server.on('POST /api/send-otp', ({ body }) => ({
    success: true,
    message: `Se este e-mail puder se cadastrar, um código está a caminho de ${body.email}`,
  }));
  const step1 = fields('pt-BR');
  await user.type(step1.name, DETAILS.name);
  await user.type(step1.email, DETAILS.email);
  await user.type(step1.password, DETAILS.password);
  await user.type(step1.confirm, DETAILS.password);
  await user.click(screen.getByRole('button', { name: 'Enviar código de verificação' }));
  await screen.findByRole('heading', { level: 1, name: 'Verifique seu e-mail' });
}

describe.each(['pt-BR', 'en-US'] as const)('registration step 1 (%s)', (language) => {
  const t = TEXTS[language];

  it('names every empty field, then each rule: name ≥ 2, e-mail shape, password ≥ 6, matching confirmation', async () => {
    const { server, user } = await openRegister(language);
    const { name, email, password, confirm } = fields(language);
    const send = screen.getByRole('button', { name: t.send });

    await user.click(send);
    expect(await screen.findByText(t.nameRequired)).toBeVisible();
    expect(name).toHaveAccessibleDescription(t.nameRequired);
    expect(email).toHaveAccessibleDescription(t.emailRequired);
    expect(password).toHaveAccessibleDescription(t.passwordRequired);
    expect(confirm).toHaveAccessibleDescription(t.confirmRequired);

    await user.type(name, ' A ');
    await user.type(email, 'ana@exemplo');
    await user.type(password, '12345');
    await user.type(confirm, '1234567');
    // Editing cleared all four.
    for (const field of [name, email, password, confirm]) {
      expect(field).not.toHaveAttribute('aria-invalid');
    }
    await user.click(send);
    expect(await screen.findByText(t.mismatch)).toBeVisible();
    // A one-letter name is not missing: it is too short, and says so.
    expect(name).toHaveAccessibleDescription(t.nameTooShort);
    expect(email).toHaveAccessibleDescription(t.emailInvalid);
    expect(password).toHaveAccessibleDescription(t.passwordTooShort);
    expect(confirm).toHaveAccessibleDescription(t.mismatch);

    await user.type(name, 'B');
    await user.type(email, '.com');
    await user.type(password, '6');
    await user.click(send);
    // Checked once the form has moved focus to the first invalid field: " A B" and "123456"
    // pass now; the confirmation "1234567" still differs.
    await waitFor(() => expect(confirm).toHaveFocus());
    expect(confirm).toHaveAccessibleDescription(t.mismatch);
    for (const field of [name, email, password]) {
      expect(field).not.toHaveAttribute('aria-invalid');
    }
    expect(confirm).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls()).toEqual([]);
  });
});

describe('registration', () => {
  it('sends the code, then shows step 2 naming the address, with "code sent" in the language', async () => {
    const { server, user } = await openRegister('en-US');
    const sendOtp = server.hold('POST /api/send-otp');
    const { name, email, password, confirm } = fields('en-US');
    await user.type(name, '  Ana Souza ');
    await user.type(email, ' ana@exemplo.com');
    await user.type(password, DETAILS.password);
    await user.type(confirm, DETAILS.password);
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));

    const pending = await sendOtp.next();
    expect(screen.getByRole('button', { name: 'Sending Code...' })).toBeDisabled();
    expect(pending.request.body).toEqual({ email: 'ana@exemplo.com', purpose: 'registration' });
    expect(pending.request.headers.get('Accept-Language')).toBe('en-US');
    pending.respond({
      success: true,
      message: 'If this address can register, a code is on its way to ana@exemplo.com',
    });

    const heading = await screen.findByRole('heading', { level: 1, name: 'Verify Your Email' });
    expect(heading).toHaveFocus();
    expect(screen.getByText('ana@exemplo.com', { selector: 'strong' })).toBeVisible();
    expect(heading.nextElementSibling).toHaveTextContent(
      'If ana@exemplo.com can register, we sent it a 6-digit code: enter it below to create your account. If it already has an account, we sent it how to sign in instead.',
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      /^If this address can register, a code is on its way to ana@exemplo\.com$/,
    );
    expect(screen.queryByLabelText('Full Name')).not.toBeInTheDocument();
    expect(server.calls()).toEqual(['POST /api/send-otp']);
  });

  it("shows the server's field error on the e-mail and stays on step 1", async () => {
    const { server, user } = await openRegister();
    const taken = 'Já existe uma conta com este e-mail. Faça login.';
    server.on('POST /api/send-otp', () =>
      errorResponse(409, { message: taken, errors: { email: taken } }),
    );
    const { name, email, password, confirm } = fields('pt-BR');
    await user.type(name, DETAILS.name);
    await user.type(email, DETAILS.email);
    await user.type(password, DETAILS.password);
    await user.type(confirm, DETAILS.password);
    await user.click(screen.getByRole('button', { name: 'Enviar código de verificação' }));

    await waitFor(() => expect(email).toHaveAccessibleDescription(taken));
    expect(email).toHaveFocus();
    // On the field, not repeated as a general error.
    expect(screen.getAllByText(taken)).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Criar conta' })).toBeVisible();
  });

  it('keeps only digits in the code, at most 6, typed or pasted', async () => {
    const { server, user } = await openRegister();
    await reachCodeStep(server, user);
    const code = screen.getByLabelText('Código de verificação');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('maxlength', '6');

    await user.type(code, 'a1b2-c3 d4e5f6g7h8');
    expect(code).toHaveValue('123456');
    await user.clear(code);
    await user.click(code);
    await user.paste('123 456');
    expect(code).toHaveValue('123456');

    await user.clear(code);
    await user.type(code, '12');
    await user.click(screen.getByRole('button', { name: 'Verificar e criar conta' }));
    expect(
      await screen.findByText('O código de verificação deve ter exatamente 6 dígitos'),
    ).toBeVisible();
    expect(code).toHaveAccessibleDescription(
      'O código de verificação deve ter exatamente 6 dígitos',
    );
    expect(server.calls()).toEqual(['POST /api/send-otp']);
  });

  it('counts the resend down each second from 60, then resends and starts again', async () => {
    // Only the countdown's clock is faked; everything else runs on real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const { server, user } = await openRegister();
    await reachCodeStep(server, user);

    const countdown = screen.getByRole('button', { name: 'Reenviar em 60s' });
    for (let seconds = 60; seconds >= 1; seconds -= 1) {
      expect(countdown).toHaveTextContent(new RegExp(`^Reenviar em ${seconds}s$`));
      expect(countdown).toBeDisabled();
      act(() => vi.advanceTimersByTime(1_000));
    }
    expect(screen.queryByRole('button', { name: /^Reenviar em/ })).not.toBeInTheDocument();
    const resend = screen.getByRole('button', { name: 'Reenviar código' });
    expect(resend).toBeEnabled();
    // The first "code sent" clears itself after 3 s on real time: waiting for that makes the one
    // after the resend the resend's own.
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(
      /^Se este e-mail puder se cadastrar, um código está a caminho/,
    );
    await waitFor(() => expect(notice).toBeEmptyDOMElement(), { timeout: 5_000 });

    const sendOtp = server.hold('POST /api/send-otp');
    await user.click(resend);
    const pending = await sendOtp.next();
    expect(screen.getByRole('button', { name: 'Enviando...' })).toBeDisabled();
    pending.respond({
      success: true,
      message: 'Se este e-mail puder se cadastrar, um código está a caminho de ana@exemplo.com',
    });

    expect(await screen.findByRole('button', { name: 'Reenviar em 60s' })).toBeDisabled();
    expect(notice).toHaveTextContent(
      /^Se este e-mail puder se cadastrar, um código está a caminho de ana@exemplo\.com$/,
    );
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('button', { name: 'Reenviar em 59s' })).toBeDisabled();
    expect(server.calls()).toEqual(['POST /api/send-otp', 'POST /api/send-otp']);
    expect(server.requests[1]?.body).toEqual({ email: DETAILS.email, purpose: 'registration' });
  });

  it.each([
    { answer: 'with the field named', errors: true },
    { answer: 'naming OTP in its message only', errors: false },
  ])(
    "puts the server's code error on the code field ($answer), cleared by editing",
    async ({ errors }) => {
      const { server, user } = await openRegister();
      await reachCodeStep(server, user);
      // A server that names the field says "código"; one that does not is recognised by "OTP".
      const invalid = errors
        ? 'Código inválido. Confira o código e tente novamente.'
        : 'Código OTP inválido. Confira o código e tente novamente.';
      server.on('POST /api/complete-registration', () =>
        errorResponse(400, { message: invalid, ...(errors ? { errors: { otp: invalid } } : {}) }),
      );
      const code = screen.getByLabelText('Código de verificação');
      await user.type(code, '123456');
      await user.click(screen.getByRole('button', { name: 'Verificar e criar conta' }));

      await waitFor(() => expect(code).toHaveAccessibleDescription(invalid));
      expect(code).toHaveAttribute('aria-invalid', 'true');
      expect(code).toHaveFocus();
      expect(screen.getAllByText(invalid)).toHaveLength(1);
      expect(server.requests.at(-1)?.body).toEqual({ ...DETAILS, otp: '123456' });

      await user.type(code, '{Backspace}');
      expect(code).not.toHaveAttribute('aria-invalid');
      expect(screen.queryByText(invalid)).not.toBeInTheDocument();
    },
  );

  it('shows any other failure as a general error', async () => {
    const { server, user } = await openRegister();
    await reachCodeStep(server, user);
    const taken = 'Já existe uma conta com este e-mail. Faça login.';
    server.on('POST /api/complete-registration', () =>
      errorResponse(409, { message: taken, errors: { email: taken } }),
    );
    const code = screen.getByLabelText('Código de verificação');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verificar e criar conta' }));

    expect(await screen.findByText(taken)).toBeVisible();
    // The general message region, and no field error.
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([taken]);
    expect(code).not.toHaveAttribute('aria-invalid');
  });

  it('"Voltar" returns to step 1 with the details kept and the code step forgotten', async () => {
    const { server, user } = await openRegister();
    await reachCodeStep(server, user);
    await user.type(screen.getByLabelText('Código de verificação'), '12');
    await user.click(screen.getByRole('button', { name: 'Verificar e criar conta' }));
    await screen.findByText('O código de verificação deve ter exatamente 6 dígitos');

    await user.click(screen.getByRole('button', { name: 'Voltar ao formulário de cadastro' }));
    const heading = screen.getByRole('heading', { level: 1, name: 'Criar conta' });
    expect(heading).toHaveFocus();
    const step1 = fields('pt-BR');
    expect(step1.name).toHaveValue(DETAILS.name);
    expect(step1.email).toHaveValue(DETAILS.email);
    expect(step1.password).toHaveValue(DETAILS.password);
    expect(step1.confirm).toHaveValue(DETAILS.password);
    expect(screen.queryByLabelText('Código de verificação')).not.toBeInTheDocument();
    expect(screen.queryByText(/Código de verificação enviado/)).not.toBeInTheDocument();
    expect(screen.queryByText(/exatamente 6 dígitos/)).not.toBeInTheDocument();

    // Forward again: a clean code step.
    await user.click(screen.getByRole('button', { name: 'Enviar código de verificação' }));
    await screen.findByRole('heading', { level: 1, name: 'Verifique seu e-mail' });
    expect(screen.getByLabelText('Código de verificação')).toHaveValue('');
    expect(screen.getByLabelText('Código de verificação')).not.toHaveAttribute('aria-invalid');
    expect(server.calls()).toEqual(['POST /api/send-otp', 'POST /api/send-otp']);
  });

  it('creates the account with the code and hands the success message on to /', async () => {
    const { server, user, location } = await openRegister();
    await reachCodeStep(server, user);
    const complete = server.hold('POST /api/complete-registration');
    await user.type(screen.getByLabelText('Código de verificação'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verificar e criar conta' }));

    const pending = await complete.next();
    expect(screen.getByRole('button', { name: 'Verificando...' })).toBeDisabled();
    expect(pending.request.body).toEqual({ ...DETAILS, otp: '654321' });
    pending.respond({
      success: true,
      message: 'Cadastro realizado com sucesso! Entre com sua nova conta.',
    });

    expect(await screen.findByRole('heading', { name: 'Stand-in page at /' })).toBeInTheDocument();
    // The sign-in page shows the message and has the address filled in.
    expect(location().state).toEqual({
      message: 'Cadastro realizado com sucesso! Entre com sua nova conta.',
      email: DETAILS.email,
    });
  });
});

/** Every value the tab's session storage holds. */
function sessionValues(): string[] {
  const storage = window.sessionStorage;
  return Array.from({ length: storage.length }, (_, i) => storage.getItem(storage.key(i)!) ?? '');
}

/** A 429 of the send-code cooldown, as the server answers it: the wait in the message and in Retry-After. */
function cooldownResponse(seconds: number): Response {
  const response = errorResponse(429, {
    message: `Aguarde ${seconds} segundos antes de pedir um novo código`,
  });
  response.headers.set('Retry-After', String(seconds));
  return response;
}

describe('a code step that survives a reload', () => {
  it('comes back to the code step for that address after a reload, asks for the password again, and creates the account', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const before = await openRegister();
    await reachCodeStep(before.server, before.user);
    act(() => vi.advanceTimersByTime(20_000));
    // A reload: the page's memory is gone; the tab keeps its session storage, never the password.
    before.unmount();
    expect(sessionValues().join(' ')).not.toContain(DETAILS.password);

    const { server, user, location } = await openRegister();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Verifique seu e-mail' }),
    ).toBeVisible();
    expect(screen.getByText(DETAILS.email, { selector: 'strong' })).toBeVisible();
    // The resend cooldown goes on from when the code was sent.
    expect(screen.getByRole('button', { name: 'Reenviar em 40s' })).toBeDisabled();
    expect(
      screen.getByText(
        'Por segurança, a senha não fica guardada no navegador: digite-a de novo para criar a conta.',
      ),
    ).toBeVisible();

    const code = screen.getByLabelText('Código de verificação');
    await user.type(code, '654321');
    const verify = screen.getByRole('button', { name: 'Verificar e criar conta' });
    await user.click(verify);
    const password = screen.getByLabelText('Senha');
    const confirm = screen.getByLabelText('Confirmar senha');
    await waitFor(() => expect(password).toHaveAccessibleDescription('Senha é obrigatória'));
    expect(confirm).toHaveAccessibleDescription('Confirmação de senha é obrigatória');
    await user.type(password, DETAILS.password);
    await user.type(confirm, 'outra-senha');
    await user.click(verify);
    await waitFor(() => expect(confirm).toHaveAccessibleDescription('As senhas não coincidem'));
    await user.clear(confirm);
    await user.type(confirm, DETAILS.password);
    expect(server.calls()).toEqual([]);

    server.on('POST /api/complete-registration', () => ({
      success: true,
      message: 'Cadastro realizado com sucesso! Entre com sua nova conta.',
    }));
    await user.click(verify);
    expect(await screen.findByRole('heading', { name: 'Stand-in page at /' })).toBeInTheDocument();
    expect(server.requests.at(-1)?.body).toEqual({ ...DETAILS, otp: '654321' });
    expect(location().state).toEqual({
      message: 'Cadastro realizado com sucesso! Entre com sua nova conta.',
      email: DETAILS.email,
    });
    // Done: nothing left for the next visit.
    expect(sessionValues()).toEqual([]);
  });

  it("forgets the code step once the code's lifetime is over", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const before = await openRegister();
    await reachCodeStep(before.server, before.user);
    act(() => vi.advanceTimersByTime(10 * 60_000 + 1_000));
    before.unmount();
    await openRegister();
    expect(screen.getByRole('heading', { level: 1, name: 'Criar conta' })).toBeVisible();
    expect(screen.getByLabelText('Nome completo')).toHaveValue('');
  });

  it('forgets the code step when the user goes back to the form', async () => {
    const before = await openRegister();
    await reachCodeStep(before.server, before.user);
    await before.user.click(
      screen.getByRole('button', { name: 'Voltar ao formulário de cadastro' }),
    );
    before.unmount();
    await openRegister();
    expect(screen.getByRole('heading', { level: 1, name: 'Criar conta' })).toBeVisible();
    expect(sessionValues()).toEqual([]);
  });

  it("says how long to wait when a resend meets the server's cooldown, and keeps the code step", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const { server, user } = await openRegister();
    await reachCodeStep(server, user);
    act(() => vi.advanceTimersByTime(60_000));
    // Another tab asked for a code meanwhile: the server's cooldown is not over.
    server.on('POST /api/send-otp', () => cooldownResponse(25));
    await user.click(screen.getByRole('button', { name: 'Reenviar código' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Aguarde 25 segundos antes de pedir um novo código',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Verifique seu e-mail' })).toBeVisible();
    expect(screen.getByLabelText('Código de verificação')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Reenviar em 25s' })).toBeDisabled();
  });

  it('goes on to the code step when step 1 is sent again within the cooldown, saying how long to wait', async () => {
    const { server, user } = await openRegister();
    await reachCodeStep(server, user);
    await user.click(screen.getByRole('button', { name: 'Voltar ao formulário de cadastro' }));
    server.on('POST /api/send-otp', () => cooldownResponse(48));
    await user.click(screen.getByRole('button', { name: 'Enviar código de verificação' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Verifique seu e-mail' }),
    ).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Aguarde 48 segundos antes de pedir um novo código',
    );
    expect(screen.getByRole('button', { name: 'Reenviar em 48s' })).toBeDisabled();
    // The password is still in the page's memory: the code alone completes the registration.
    expect(screen.queryByLabelText('Senha')).not.toBeInTheDocument();
    server.on('POST /api/complete-registration', () => ({ success: true, message: 'ok' }));
    await user.type(screen.getByLabelText('Código de verificação'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verificar e criar conta' }));
    await screen.findByRole('heading', { name: 'Stand-in page at /' });
    expect(server.requests.at(-1)?.body).toEqual({ ...DETAILS, otp: '123456' });
  });
});

describe('registration closed by the admin', () => {
  it('says so instead of the form, with the way to sign in', async () => {
    const server = startFakeServer();
    server.on('GET /api/settings/public', () => ({
      ...defaultPublicSettings(),
      registrationEnabled: false,
    }));
    await renderWithProviders(<RegisterRoute />, {
      language: 'es-ES',
      route: '/register',
      texts: ['register'],
    });
    expect(
      await screen.findByText(
        'El registro está cerrado en este momento. Si ya tienes una cuenta, inicia sesión.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Inicia sesión aquí' })).toHaveAttribute(
      'href',
      '/login',
    );
    // Neither the heading nor the side panel invites to sign up.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Registro cerrado');
    const panel = screen.getByRole('complementary');
    expect(panel).not.toHaveTextContent('Crea tu cuenta');
    expect(panel).not.toHaveTextContent('regístrate');
    expect(panel).toHaveTextContent('Todo lo que tu equipo de IA necesita');
    expect(server.calls()).toEqual([]);
  });
});

describe('e-mail verification turned off by the admin', () => {
  it('creates the account from the details in one step, with no code', async () => {
    const server = startFakeServer();
    server.on('GET /api/settings/public', () => ({
      ...defaultPublicSettings(),
      emailVerification: false,
    }));
    const { user, location } = await renderWithProviders(<RegisterRoute />, {
      language: 'pt-BR',
      route: '/register',
      texts: ['register'],
    });
    const create = await screen.findByRole('button', { name: 'Criar conta' });
    const step = fields('pt-BR');
    await user.type(step.name, DETAILS.name);
    await user.type(step.email, DETAILS.email);
    await user.type(step.password, DETAILS.password);
    await user.type(step.confirm, DETAILS.password);
    const complete = server.hold('POST /api/complete-registration');
    await user.click(create);

    const pending = await complete.next();
    expect(screen.getByRole('button', { name: 'Criando conta...' })).toBeDisabled();
    expect(pending.request.body).toEqual(DETAILS);
    pending.respond({
      success: true,
      message: 'Cadastro realizado com sucesso! Entre com sua nova conta.',
    });
    expect(await screen.findByRole('heading', { name: 'Stand-in page at /' })).toBeInTheDocument();
    expect(location().state).toEqual({
      message: 'Cadastro realizado com sucesso! Entre com sua nova conta.',
      email: DETAILS.email,
    });
    expect(server.calls()).toEqual(['POST /api/complete-registration']);
  });
});
