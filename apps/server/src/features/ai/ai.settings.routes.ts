import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  aiSettingsInputSchema,
  aiSettingsSchema,
  aiTestResponseSchema,
  errorResponseSchema,
  type AiTestResponse,
  type Language,
} from '@contrateia/shared';
import type { Translate } from '@/lib/i18n';
import { actorOf } from '@/plugins/auth';
import type { ProviderCheck, ProviderProbe } from './ai.service';
import type { AiSettingsService } from './ai.settings';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

/** Connection tests an admin may run per minute: each one is a request to another server. */
export const DEFAULT_AI_TESTS_PER_MINUTE = 20;

/**
 * `/api/admin/ai`: the language model's provider (admins in admin mode only, checked on the
 * request, before the body is read). The API key is write-only: no answer carries it.
 */
export const adminAiRoutes: FastifyPluginAsyncZod<{
  ai: AiSettingsService;
  testsPerMinute?: number;
}> = async (app, { ai, testsPerMinute }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get('/admin/ai', { schema: { response: { 200: aiSettingsSchema, ...errors } } }, async () =>
    ai.get(),
  );

  app.post(
    '/admin/ai',
    { schema: { body: aiSettingsInputSchema, response: { 200: aiSettingsSchema, ...errors } } },
    async (request) =>
      ai.save({
        input: request.body,
        actor: actorOf(request),
      }),
  );

  app.post(
    '/admin/ai/test',
    {
      // Counted per admin, after the admin check (route hooks run after the plugin's).
      config: {
        rateLimit: {
          max: testsPerMinute ?? DEFAULT_AI_TESTS_PER_MINUTE,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (request) => `ai-test:${request.auth?.user.id ?? request.ip}`,
        },
      },
      schema: {
        body: aiSettingsInputSchema,
        response: { 200: aiTestResponseSchema, ...errors, 429: errorResponseSchema },
      },
    },
    async (request): Promise<AiTestResponse> => {
      const result = await ai.test({ input: request.body, language: request.language });
      /** A failed check as the admin reads it, logged with why (never the provider's text). */
      const failed = (
        check: Extract<ProviderCheck | ProviderProbe, { ok: false }>,
        what: string,
      ) => {
        request.log.warn(
          { reason: check.reason, status: check.status, provider: request.body.provider },
          `AI ${what} test failed`,
        );
        return {
          ok: false,
          latencyMs: check.latencyMs,
          error: failureMessage(check, request.body.timeoutMs, request.t, request.language),
        };
      };
      if (!result.ok) return failed(result, 'connection');
      const heard = result.transcription;
      return {
        ok: true,
        latencyMs: result.latencyMs,
        reply: result.reply,
        ...(heard
          ? {
              transcription: heard.ok
                ? { ok: true, latencyMs: heard.latencyMs }
                : failed(heard, 'transcription'),
            }
          : {}),
      };
    },
  );
};

/** Why a test failed, in the admin's words: what to check, never the provider's own text. */
function failureMessage(
  result: Extract<ProviderCheck | ProviderProbe, { ok: false }>,
  timeoutMs: number,
  t: Translate,
  language: Language,
): string {
  const status = result.status ?? 0;
  switch (result.reason) {
    case 'connection':
      return t('aiProvider.unreachable');
    case 'timeout':
    case 'aborted':
      return t('aiProvider.timeout', {
        seconds: new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(
          timeoutMs / 1000,
        ),
      });
    case 'redirect':
      return t('aiProvider.redirected', { status });
    case 'status-401':
      return t('aiProvider.badKey');
    case 'status-429':
      return t('aiProvider.rateLimited');
    case 'status-4xx':
      return status === 404 ? t('aiProvider.notFound') : t('aiProvider.refused', { status });
    case 'status-5xx':
      return t('aiProvider.serverError', { status });
    case 'malformed':
      return t('aiProvider.malformed');
    case 'too-large':
      return t('aiProvider.tooLarge');
    case 'provider-error':
      return t('aiProvider.providerError');
    case 'empty':
      return t('aiProvider.empty');
  }
}
