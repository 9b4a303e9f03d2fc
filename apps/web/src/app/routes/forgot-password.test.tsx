// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ForgotPasswordRoute from '@/app/routes/forgot-password';
import { errorResponse, startFakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// The forgotten-password page against a stand-in server; the whole path with the real server
// and the mailed code is e2e/account.spec.ts.

const TEXTS = {
  'pt-BR': {
    email: 'Endereço de e-mail',
    send: 'Enviar código',
    emailRequired: 'E-mail é obrigatório',
    step2: 'Escolha uma nova senha',
    code: 'Código de verificação',
    password: 'Nova senha',
    confirm: 'Confirme a nova senha',
    save: 'Redefinir senha',
    mismatch: 'As senhas não coincidem',
    codeRequired: 'Digite o código de verificação enviado para seu e-mail',
  },
  'es-ES': {
    email: 'Correo electrónico',
    send: 'Enviar código',
    emailRequired: 'El correo electrónico es obligatorio',
    step2: 'Elige una contraseña nueva',
    code: 'Código de verificación',
    password: 'Contraseña nueva',
    confirm: 'Confirma la contraseña nueva',
    save: 'Restablecer contraseña',
    mismatch: 'Las contraseñas no coinciden',
    codeRequired: 'Introduce el código de verificación de tu correo',
  },
} as const;

describe.each(['pt-BR', 'es-ES'] as const)('forgot password (%s)', (language) => {
  const t = TEXTS[language];

  it("checks the address in the browser, then moves to the code step with the server's message", async () => {
    const server = startFakeServer();
    const { user } = await renderWithProviders(<ForgotPasswordRoute />, {
      language,
      route: '/forgot-password',
      texts: ['account', 'register'],
    });

    await user.click(screen.getByRole('button', { name: t.send }));
    expect(await screen.findByText(t.emailRequired)).toBeVisible();
    expect(server.calls()).toEqual([]);

    server.on('POST /api/forgot-password', ({ body }) => ({
      success: true,
      message: `sent to ${body.email}`,
    }));
    await user.type(screen.getByLabelText(t.email), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: t.send }));
    expect(await screen.findByRole('heading', { level: 1, name: t.step2 })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('sent to ana@example.com');

    // Both rules of the shared schema, before any call.
    await user.click(screen.getByRole('button', { name: t.save }));
    expect(await screen.findByText(t.codeRequired)).toBeVisible();
    await user.type(screen.getByLabelText(t.code), '12a3456');
    await user.type(screen.getByLabelText(t.password), 'segredo-novo');
    await user.type(screen.getByLabelText(t.confirm), 'outro');
    await user.click(screen.getByRole('button', { name: t.save }));
    expect(await screen.findByText(t.mismatch)).toBeVisible();
    expect(server.calls()).toEqual(['POST /api/forgot-password']);

    // The server's word on the code lands on the code field.
    server.on('POST /api/reset-password', () =>
      errorResponse(400, { message: 'Código inválido', errors: { otp: 'Código inválido' } }),
    );
    await user.clear(screen.getByLabelText(t.confirm));
    await user.type(screen.getByLabelText(t.confirm), 'segredo-novo');
    await user.click(screen.getByRole('button', { name: t.save }));
    expect(await screen.findByText('Código inválido')).toBeVisible();
    expect(screen.getByLabelText(t.code)).toHaveValue('123456');
    expect(screen.getByLabelText(t.code)).toHaveAttribute('aria-invalid', 'true');
  });

  it('keeps only digits in the code, at most 6, typed or pasted (as on registration)', async () => {
    const server = startFakeServer();
    server.on('POST /api/forgot-password', () => ({ success: true, message: 'sent' }));
    const { user } = await renderWithProviders(<ForgotPasswordRoute />, {
      language,
      route: '/forgot-password',
      texts: ['account', 'register'],
    });
    await user.type(screen.getByLabelText(t.email), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: t.send }));
    const code = await screen.findByLabelText(t.code);
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await user.type(code, 'a1b2-c3 d4e5f6g7');
    expect(code).toHaveValue('123456');
    await user.clear(code);
    await user.click(code);
    // A code copied from the mail with a space in it: maxlength alone would keep "123 45".
    await user.paste('123 456');
    expect(code).toHaveValue('123456');
  });
});
