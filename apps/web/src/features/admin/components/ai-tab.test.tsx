// @vitest-environment happy-dom
import type { AiSettings, AiSettingsInput } from '@contrateia/shared/admin/admin.schemas';
import type { Language } from '@contrateia/shared/i18n/languages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AiTab } from '@/features/admin/components/ai-tab';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// The AI tab against a stand-in API that keeps the settings as the server does: the key is stored
// but never sent back, only whether one is set.

const OPENAI: AiSettings = {
  provider: 'openai',
  baseUrl: 'https://llm.exemplo.com/v1',
  model: 'gpt-4o-mini',
  apiKeySet: true,
  timeoutMs: 30_000,
  transcriptionModel: '',
  vision: false,
};

function fakeAiApi(server: FakeServer, settings: AiSettings) {
  const state = { settings: { ...settings }, key: settings.apiKeySet ? 'sk-old' : '' };
  server.on('GET /api/admin/ai', () => ({ ...state.settings }));
  server.on('POST /api/admin/ai', ({ body: { apiKey, transcriptionModel, vision, ...rest } }) => {
    if (apiKey !== undefined) state.key = apiKey;
    state.settings = {
      ...rest,
      apiKeySet: state.key !== '',
      // Absent, the saved ones are kept.
      transcriptionModel: transcriptionModel ?? state.settings.transcriptionModel,
      vision: vision ?? state.settings.vision,
    };
    return { ...state.settings };
  });
  return state;
}

async function openTab({
  language = 'en-US',
  settings = OPENAI,
}: { language?: Language; settings?: AiSettings } = {}) {
  const server = startFakeServer();
  const state = fakeAiApi(server, settings);
  const view = await renderWithProviders(<AiTab />, {
    language,
    route: '/admin',
    texts: ['app', 'admin'],
  });
  const form = await screen.findByRole('form', { name: /^(AI|IA)$/ });
  return { server, state, form, ...view };
}

const bodies = (server: FakeServer, call: string) =>
  server.requests
    .filter((r) => `${r.method} ${r.url}` === call)
    .map((r) => r.body as AiSettingsInput);

describe('the AI settings', () => {
  it('shows the saved settings, and only whether a key is set', async () => {
    const { form } = await openTab();
    expect(within(form).getByRole('combobox', { name: 'Provider' })).toHaveValue('openai');
    expect(within(form).getByLabelText('Base URL')).toHaveValue('https://llm.exemplo.com/v1');
    expect(within(form).getByLabelText('Model')).toHaveValue('gpt-4o-mini');
    const key = within(form).getByLabelText('API key');
    expect(key).toHaveAttribute('type', 'password');
    expect(key).toHaveValue('');
    expect(key).toHaveAccessibleDescription(/A key is set/);
    expect(within(form).getByLabelText('Timeout (milliseconds)')).toHaveValue(30000);
  });

  it('leaves the key out of a save when none was typed, so the server keeps it', async () => {
    const { server, state, user, form } = await openTab();
    const model = within(form).getByLabelText('Model');
    await user.clear(model);
    await user.type(model, 'llama3.1');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('AI settings saved.')).toBeInTheDocument();
    expect(bodies(server, 'POST /api/admin/ai')).toEqual([
      {
        provider: 'openai',
        baseUrl: 'https://llm.exemplo.com/v1',
        model: 'llama3.1',
        timeoutMs: 30000,
        transcriptionModel: '',
        vision: false,
      },
    ]);
    expect(state.key).toBe('sk-old');
  });

  it('sends a typed key once, and never shows it again', async () => {
    const { server, state, user, form } = await openTab();
    await user.type(within(form).getByLabelText('API key'), 'sk-new-123');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText('AI settings saved.');
    expect(bodies(server, 'POST /api/admin/ai')[0]?.apiKey).toBe('sk-new-123');
    expect(state.key).toBe('sk-new-123');
    expect(within(form).getByLabelText('API key')).toHaveValue('');
  });

  it("removes the key with 'Remove key' (sent as ''), which can be taken back before saving", async () => {
    const { server, state, user, form } = await openTab();
    await user.click(within(form).getByRole('button', { name: 'Remove key' }));
    expect(within(form).getByLabelText('API key')).toHaveAccessibleDescription(
      'The key will be removed when you save.',
    );
    await user.click(within(form).getByRole('button', { name: 'Keep the key' }));
    expect(within(form).getByLabelText('API key')).toHaveAccessibleDescription(/A key is set/);
    await user.click(within(form).getByRole('button', { name: 'Remove key' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText('AI settings saved.');
    expect(bodies(server, 'POST /api/admin/ai')[0]?.apiKey).toBe('');
    expect(state.key).toBe('');
    expect(within(form).getByLabelText('API key')).toHaveAccessibleDescription('No key is set.');
    expect(within(form).queryByRole('button', { name: 'Remove key' })).not.toBeInTheDocument();
  });

  it('checks the form with the shared schema before sending anything', async () => {
    const { server, user, form } = await openTab();
    await user.clear(within(form).getByLabelText('Model'));
    const baseUrl = within(form).getByLabelText('Base URL');
    await user.clear(baseUrl);
    await user.type(baseUrl, 'ftp://llm.exemplo.com');
    const timeout = within(form).getByLabelText('Timeout (milliseconds)');
    await user.clear(timeout);
    await user.type(timeout, '10');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(baseUrl).toHaveAccessibleDescription(/Enter an http or https address/),
    );
    expect(within(form).getByLabelText('Model')).toHaveAccessibleDescription(
      /The model is required for an OpenAI-compatible provider/,
    );
    expect(timeout).toHaveAccessibleDescription(
      /The timeout is a whole number of milliseconds from 1,000 to 600,000/,
    );
    expect(server.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it("puts the server's field errors on their fields", async () => {
    const { server, user, form } = await openTab();
    server.on('POST /api/admin/ai', () =>
      errorResponse(400, {
        message: 'Validation error',
        errors: { baseUrl: 'This address cannot be reached from the server' },
      }),
    );
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    const baseUrl = within(form).getByLabelText('Base URL');
    await waitFor(() =>
      expect(baseUrl).toHaveAccessibleDescription(/This address cannot be reached from the server/),
    );
    expect(baseUrl).toHaveFocus();
  });

  it("says 'Failed to save the AI settings' with the server's reason otherwise", async () => {
    const { server, user, form } = await openTab();
    server.on('POST /api/admin/ai', () => errorResponse(503, { message: 'Try again later' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Failed to save the AI settings: Try again later',
    );
  });

  it('says the saved key must be typed again once the base URL is another address, and not for the same one written another way', async () => {
    const { user, form } = await openTab();
    const baseUrl = within(form).getByLabelText('Base URL');
    const key = within(form).getByLabelText('API key');
    const retype =
      'The saved key is only sent to the address it was saved for. To use this address, type the key again.';
    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://outro.exemplo.com/v1');
    expect(key).toHaveAccessibleDescription(retype);
    await user.clear(baseUrl);
    await user.type(baseUrl, 'HTTPS://LLM.exemplo.com:443/v1/');
    expect(key).toHaveAccessibleDescription(/A key is set/);
    await user.type(baseUrl, 'v2');
    expect(key).toHaveAccessibleDescription(retype);
    // Removing the key needs no key: the removal is what the field says.
    await user.click(within(form).getByRole('button', { name: 'Remove key' }));
    expect(key).toHaveAccessibleDescription('The key will be removed when you save.');
  });

  it.each(['Save', 'Test connection'])(
    "shows the server's refusal of the kept key on the key field (%s)",
    async (button) => {
      const { server, user, form } = await openTab({ language: 'pt-BR' });
      const refusal = () =>
        errorResponse(400, {
          message: 'A chave de API salva só é enviada à URL base para a qual foi salva.',
          errors: { apiKey: 'A chave de API salva só é enviada à URL base para a qual foi salva.' },
        });
      server.on('POST /api/admin/ai', refusal);
      server.on('POST /api/admin/ai/test', refusal);
      const baseUrl = within(form).getByLabelText('URL base');
      await user.clear(baseUrl);
      await user.type(baseUrl, 'https://outro.exemplo.com/v1');
      await user.click(
        within(form).getByRole('button', { name: button === 'Save' ? 'Salvar' : 'Testar conexão' }),
      );
      const key = within(form).getByLabelText('Chave de API');
      // The refusal alone: the hint that said the same is not repeated beside it.
      await waitFor(() =>
        expect(key).toHaveAccessibleDescription(
          'A chave de API salva só é enviada à URL base para a qual foi salva.',
        ),
      );
      expect(key).toHaveFocus();
      // On the field alone: no general failure beside it.
      expect(form).not.toHaveTextContent(/Falha ao/);
    },
  );

  it('asks only for what the builtin provider uses', async () => {
    const { server, user, form } = await openTab({
      settings: {
        provider: 'builtin',
        baseUrl: '',
        model: '',
        apiKeySet: false,
        timeoutMs: 20_000,
        transcriptionModel: 'whisper-1',
        vision: true,
      },
    });
    expect(within(form).queryByLabelText('Base URL')).not.toBeInTheDocument();
    expect(within(form).queryByLabelText('API key')).not.toBeInTheDocument();
    // What it cannot do is said, and what was set for a provider that can is kept.
    expect(within(form).queryByLabelText('Transcription model (optional)')).not.toBeInTheDocument();
    expect(form).toHaveTextContent(
      'The builtin engine cannot transcribe voice notes or see images: the agent tells customers it cannot yet.',
    );
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Provider' }), 'openai');
    expect(within(form).getByLabelText('Base URL')).toBeInTheDocument();
    expect(within(form).getByLabelText('API key')).toHaveAccessibleDescription('No key is set.');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Provider' }), 'builtin');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText('AI settings saved.');
    expect(bodies(server, 'POST /api/admin/ai')).toEqual([
      {
        provider: 'builtin',
        baseUrl: '',
        model: '',
        timeoutMs: 20000,
        transcriptionModel: 'whisper-1',
        vision: true,
      },
    ]);
  });
});

describe('voice notes and photos', () => {
  it('saves a transcription model and that the model sees images, each with what it does', async () => {
    const { server, state, user, form } = await openTab();
    const transcription = within(form).getByLabelText('Transcription model (optional)');
    expect(transcription).toHaveValue('');
    expect(transcription).toHaveAccessibleDescription(
      /such as whisper-1.*voice notes are transcribed/,
    );
    const vision = within(form).getByRole('switch', { name: 'This model can see images' });
    expect(vision).not.toBeChecked();
    expect(vision).toHaveAccessibleDescription(/photos customers send on WhatsApp go to it/);
    await user.type(transcription, 'whisper-1');
    await user.click(vision);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText('AI settings saved.');
    expect(bodies(server, 'POST /api/admin/ai')[0]).toMatchObject({
      transcriptionModel: 'whisper-1',
      vision: true,
    });
    expect(state.settings).toMatchObject({ transcriptionModel: 'whisper-1', vision: true });
    expect(within(form).getByLabelText('Transcription model (optional)')).toHaveValue('whisper-1');
    expect(within(form).getByRole('switch', { name: 'This model can see images' })).toBeChecked();
  });

  it('refuses a transcription model with spaces before sending, in the admin’s language', async () => {
    const { server, user, form } = await openTab({ language: 'pt-BR' });
    const transcription = within(form).getByLabelText('Modelo de transcrição (opcional)');
    await user.type(transcription, 'whisper 1; rm -rf');
    await user.click(within(form).getByRole('button', { name: 'Salvar' }));
    await waitFor(() =>
      expect(transcription).toHaveAccessibleDescription(
        /O modelo de transcrição tem até 200 caracteres, só letras, números e \. _ - \/ : @ \+, sem espaços/,
      ),
    );
    expect(server.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it("shows the server's refusal on the transcription model field", async () => {
    const { server, user, form } = await openTab();
    server.on('POST /api/admin/ai', () =>
      errorResponse(400, {
        message: 'Validation error',
        errors: { transcriptionModel: 'This model does not exist on the provider' },
      }),
    );
    await user.type(within(form).getByLabelText('Transcription model (optional)'), 'whisper-9');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        within(form).getByLabelText('Transcription model (optional)'),
      ).toHaveAccessibleDescription(/This model does not exist on the provider/),
    );
  });
});

describe('Test connection', () => {
  it('tests the values on screen, unsaved, and shows the latency and the reply', async () => {
    const { server, user, form } = await openTab();
    server.on('POST /api/admin/ai/test', () => ({ ok: true, latencyMs: 1234, reply: 'pong' }));
    const model = within(form).getByLabelText('Model');
    await user.clear(model);
    await user.type(model, 'llama3.1');
    await user.type(within(form).getByLabelText('API key'), 'sk-try');
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect(await within(form).findByText('Connected in 1,234 ms.')).toBeInTheDocument();
    expect(form).toHaveTextContent('Reply: pong');
    expect(bodies(server, 'POST /api/admin/ai/test')).toEqual([
      {
        provider: 'openai',
        baseUrl: 'https://llm.exemplo.com/v1',
        model: 'llama3.1',
        apiKey: 'sk-try',
        timeoutMs: 30000,
        transcriptionModel: '',
        vision: false,
      },
    ]);
    expect(server.calls()).not.toContain('POST /api/admin/ai');
  });

  it('shows why the completion failed, and after how long', async () => {
    const { server, user, form } = await openTab();
    server.on('POST /api/admin/ai/test', () => ({
      ok: false,
      latencyMs: 30000,
      error: 'The provider did not answer within 30 seconds',
    }));
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect(await within(form).findByText('The test failed after 30,000 ms.')).toBeInTheDocument();
    expect(form).toHaveTextContent('The provider did not answer within 30 seconds');
  });

  it("says 'Failed to test the connection' when the request itself is refused", async () => {
    const { server, user, form } = await openTab();
    server.on('POST /api/admin/ai/test', () =>
      errorResponse(429, { message: 'Too many requests. Try again in 60 seconds.' }),
    );
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect(
      await within(form).findByText(
        'Failed to test the connection: Too many requests. Try again in 60 seconds.',
      ),
    ).toBeInTheDocument();
  });

  it('says how the transcription model did, apart from the chat model', async () => {
    const { server, user, form } = await openTab({ language: 'pt-BR' });
    server.on('POST /api/admin/ai/test', () => ({
      ok: true,
      latencyMs: 800,
      reply: 'pong',
      transcription: { ok: true, latencyMs: 450 },
    }));
    await user.click(within(form).getByRole('button', { name: 'Testar conexão' }));
    expect(
      await within(form).findByText('O modelo de transcrição respondeu em 450 ms.'),
    ).toBeInTheDocument();

    server.on('POST /api/admin/ai/test', () => ({
      ok: true,
      latencyMs: 800,
      reply: 'pong',
      transcription: {
        ok: false,
        latencyMs: 90,
        error: 'O provedor não encontrou o modelo.',
      },
    }));
    await user.click(within(form).getByRole('button', { name: 'Testar conexão' }));
    const failed = (
      await within(form).findByText(
        'O modelo de transcrição falhou depois de 90 ms; o de chat funciona.',
      )
    ).closest('.alert')!;
    expect(failed).toHaveClass('alert--error');
    expect(failed).toHaveTextContent('O provedor não encontrou o modelo.');
    expect(within(form).getByText('Conectado em 800 ms.')).toBeInTheDocument();
  });

  it('in Portuguese', async () => {
    const { server, user, form } = await openTab({ language: 'pt-BR' });
    server.on('POST /api/admin/ai/test', () => ({ ok: true, latencyMs: 1234, reply: 'pong' }));
    await user.click(within(form).getByRole('button', { name: 'Testar conexão' }));
    expect(await within(form).findByText('Conectado em 1.234 ms.')).toBeInTheDocument();
  });
});

describe('loading the settings', () => {
  it("says 'Failed to load the AI settings' with the server's reason", async () => {
    const server = startFakeServer();
    server.on('GET /api/admin/ai', () => errorResponse(500, { message: 'Server error' }));
    await renderWithProviders(<AiTab />, { language: 'en-US', texts: ['app', 'admin'] });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load the AI settings: Server error',
    );
  });
});
