// @vitest-environment happy-dom
import {
  defaultSettings,
  type ContentSettings,
} from '@contrateia/shared/settings/settings.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ContentTab } from '@/features/admin/components/content-tab';
import { ADMIN, serveSettings, signIn } from '@/test/admin-settings';
import { errorResponse, startFakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// Content Management against a stand-in server that stores what it is sent, as admin.routes.ts
// does. The page texts it changes are checked in a browser in e2e/admin-settings.spec.ts.

function storedContent(): ContentSettings {
  const content = defaultSettings().content;
  content.loginTitle['pt-BR'] = 'Entre na sua IA';
  content.features.chat.title['en-US'] = 'Chat with your AI';
  return content;
}

async function openContent(language: 'en-US' | 'pt-BR' = 'en-US') {
  const server = startFakeServer();
  signIn(server, ADMIN);
  const stored = serveSettings(server, { content: storedContent() });
  const view = await renderWithProviders(<ContentTab />, {
    language,
    route: '/admin',
    texts: ['app', 'admin'],
  });
  await screen.findByRole('tablist', {
    name: language === 'en-US' ? 'Language of the texts' : 'Idioma dos textos',
  });
  return { server, stored, ...view };
}

const field = (name: string) => screen.getByRole('textbox', { name });

describe('Content Management', () => {
  it("shows the texts in the page's language first, each empty one with its built-in text as placeholder, and the others a tab away", async () => {
    const { user } = await openContent();
    const languages = within(screen.getByRole('tablist', { name: 'Language of the texts' }));
    expect(languages.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Português (Brasil)',
      'English (US)',
      'Español (España)',
    ]);
    expect(languages.getByRole('tab', { name: 'English (US)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(field('Chat blurb: title')).toHaveValue('Chat with your AI');
    expect(field('Sign-in title')).toHaveValue('');
    await waitFor(() =>
      expect(field('Sign-in title')).toHaveAttribute('placeholder', 'Welcome Back'),
    );
    expect(field('Registration subtitle')).toHaveAttribute(
      'placeholder',
      'Join ContrateIA and hire your own AI',
    );
    expect(field('Sign-in title')).toHaveAttribute('lang', 'en-US');

    await user.click(languages.getByRole('tab', { name: 'Português (Brasil)' }));
    expect(field('Sign-in title')).toHaveValue('Entre na sua IA');
    expect(field('Sign-in title')).toHaveAttribute('lang', 'pt-BR');
    // The built-in texts of a language the page is not in.
    await waitFor(() =>
      expect(field('Registration subtitle')).toHaveAttribute(
        'placeholder',
        'Cadastre-se na ContrateIA e contrate sua própria IA',
      ),
    );
    expect(field('Chat blurb: title')).toHaveAttribute('placeholder', 'Assistente de chat com IA');
    // The logo shows the app's title when it has none of its own.
    await user.click(languages.getByRole('tab', { name: 'Español (España)' }));
    expect(field('Logo text')).toHaveAttribute('placeholder', 'ContrateIA');
    await user.type(field('App title (browser tab)'), 'MiIA');
    expect(field('Logo text')).toHaveAttribute('placeholder', 'MiIA');
  });

  it('saves the texts of every language, trimmed, says so, and the message clears itself after 3 s', async () => {
    const { server, stored, user } = await openContent();
    await user.type(field('Sign-in title'), '  Welcome to your AI  ');
    await user.click(screen.getByRole('tab', { name: 'Português (Brasil)' }));
    await user.clear(field('Sign-in title'));
    await user.type(field('App subtitle (header)'), 'Sua IA contratada');

    const saving = server.hold('POST /api/admin/settings/content');
    await user.click(screen.getByRole('button', { name: 'Save content' }));
    const request = await saving.next();
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    const expected = storedContent();
    expected.loginTitle['en-US'] = 'Welcome to your AI';
    expected.loginTitle['pt-BR'] = '';
    expected.appSubtitle['pt-BR'] = 'Sua IA contratada';
    expect(request.request.body).toEqual(expected);
    stored.content = request.request.body;
    request.respond(request.request.body);

    const status = screen.getAllByRole('status')[0]!;
    await waitFor(() => expect(status).toHaveTextContent('Content settings saved'));
    const shownAt = Date.now();
    expect(screen.getByRole('button', { name: 'Save content' })).toBeEnabled();
    await waitFor(() => expect(status).toBeEmptyDOMElement(), { timeout: 5_000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(2_900);
  });

  it('asks before the page is closed with texts not saved, and no longer once they are', async () => {
    const { user } = await openContent();
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).toBe(false);
    await user.type(field('Sign-in title'), 'Welcome');
    expect(leave()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save content' }));
    expect(await screen.findByRole('status')).toHaveTextContent(/saved/i);
    expect(leave()).toBe(false);
  });

  it("refuses a title over 100 characters on its field, in its language's tab, sending nothing", async () => {
    const { server, user } = await openContent();
    await user.click(screen.getByRole('tab', { name: 'Español (España)' }));
    await user.type(field('Registration title'), 'x'.repeat(101));
    await user.click(screen.getByRole('tab', { name: 'Português (Brasil)' }));
    await user.click(screen.getByRole('button', { name: 'Save content' }));

    const spanish = screen.getByRole('tab', { name: 'Español (España) (check the texts)' });
    await waitFor(() => expect(spanish).toHaveAttribute('aria-selected', 'true'));
    const title = field('Registration title');
    expect(title).toHaveAccessibleDescription('Titles can have at most 100 characters');
    expect(title).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(title).toHaveFocus());
    expect(server.calls().filter((call) => call.startsWith('POST'))).toEqual([]);

    // Fixing it clears the error.
    await user.clear(title);
    await user.type(title, 'Crea tu cuenta');
    await waitFor(() => expect(title).not.toHaveAttribute('aria-invalid'));
    expect(screen.getByRole('tab', { name: 'Español (España)' })).toBeVisible();
  });

  it("puts the server's field errors on their fields, showing their language, with 'Failed to save content settings'", async () => {
    const { server, user } = await openContent();
    const refusal = 'Texts can only hold plain text on one line, without hidden characters';
    server.on('POST /api/admin/settings/content', () =>
      errorResponse(400, {
        message: 'Validation error',
        errors: { 'loginSubtitle.pt-BR': refusal },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Save content' }));

    expect(await screen.findByText('Failed to save content settings')).toBeVisible();
    expect(
      screen.getByRole('tab', { name: 'Português (Brasil) (check the texts)' }),
    ).toHaveAttribute('aria-selected', 'true');
    const subtitle = field('Sign-in subtitle');
    expect(subtitle).toHaveAccessibleDescription(refusal);
    await waitFor(() => expect(subtitle).toHaveFocus());
  });

  it.each([
    {
      what: 'the server refuses',
      answer: () => errorResponse(500, { message: 'Server error' }),
      said: 'Failed to save content settings: Server error',
    },
    {
      what: 'the server cannot be reached',
      answer: () => Promise.reject(new TypeError('Failed to fetch')),
      said: 'Failed to save content settings: the server could not be reached. Check your connection and try again.',
    },
  ])(
    "says 'Failed to save content settings', and why, when $what, keeping the texts",
    async ({ answer, said }) => {
      const { server, user } = await openContent();
      server.on('POST /api/admin/settings/content', answer);
      await user.type(field('Sign-in title'), 'Hello');
      await user.click(screen.getByRole('button', { name: 'Save content' }));
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(said));
      expect(field('Sign-in title')).toHaveValue('Hello');
      expect(screen.getByRole('button', { name: 'Save content' })).toBeEnabled();
    },
  );

  it('works in pt-BR', async () => {
    const { user } = await openContent('pt-BR');
    expect(field('Título da entrada')).toHaveValue('Entre na sua IA');
    await user.click(screen.getByRole('button', { name: 'Salvar conteúdo' }));
    expect(await screen.findByText('Configurações de conteúdo salvas')).toBeVisible();
  });
});
