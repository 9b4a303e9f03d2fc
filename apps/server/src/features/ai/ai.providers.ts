import type { AgentConfiguration, Language } from '@contrateia/shared';
import type { EventLog } from '@/lib/event-log';
import { createTranslator, type Translate } from '@/lib/i18n';
import { createBuiltinEngine } from './ai.builtin';
import { EngineFailure } from './ai.errors';
import type {
  AgentEngine,
  EngineConfig,
  ProviderCheck,
  ProviderProbe,
  ReplyOutcome,
} from './ai.service';
import { createOpenAIEngine, probeOpenAI } from './ai.openai';
import { checkTranscription } from './ai.transcription';

// The one place that knows every provider: the ai module builds its engine here, and everything
// else sees only the AgentEngine interface (ai.service.ts).

export type { EngineConfig };

type Translator = (language: Language) => Translate;

/**
 * Builds the engine a configuration names; `openai` needs a base URL (config.ts and the admin's
 * form check it first). `translate` is the app's translator, for the sentences an engine words
 * itself.
 */
export function createEngine(
  config: EngineConfig,
  { translate, maxResponseBytes }: { translate?: Translator; maxResponseBytes?: number } = {},
): AgentEngine {
  if (config.provider === 'builtin') return createBuiltinEngine({ translate });
  if (!config.baseUrl) throw new Error('AI_BASE_URL is required when AI_PROVIDER is openai');
  return createOpenAIEngine({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    timeoutMs: config.timeoutMs,
    maxResponseBytes,
    translate,
  });
}

/**
 * The engine every feature answers with: each reply goes to the provider `config()` names at that
 * moment (the admin's saved settings, else the AI_* variables), so a change is in force from the
 * next reply on. The engine of the configuration last used is kept, with what it has prepared
 * (knowledge indexes), until the configuration changes.
 */
export function createConfiguredEngine({
  config,
  translate,
  onReply,
  eventLog,
}: {
  config: () => Promise<EngineConfig>;
  translate?: Translator;
  /** Told how each real reply ended (the monitor watches the provider's failures); not a stop by the user. */
  onReply?: (outcome: ReplyOutcome) => void;
  /** The stored log: each provider failure (which provider, why; never its key or the prompt). */
  eventLog?: EventLog;
}): AgentEngine {
  const builtin = createBuiltinEngine({ translate });
  let openai: { key: string; engine: AgentEngine } | undefined;
  let last: AgentEngine = builtin;
  const engineFor = (current: EngineConfig): AgentEngine => {
    if (current.provider === 'builtin') return builtin;
    const key = JSON.stringify([
      current.baseUrl,
      current.apiKey ?? null,
      current.model ?? null,
      current.timeoutMs,
    ]);
    if (openai?.key !== key) openai = { key, engine: createEngine(current, { translate }) };
    return openai.engine;
  };
  return {
    /** The provider of the latest reply. */
    get name() {
      return last.name;
    },
    async *reply(request) {
      const current = await config();
      const engine = engineFor(current);
      last = engine;
      try {
        // Pictures go only to a model the admin said can see: any other is asked without them.
        const seen = current.provider === 'openai' && current.vision;
        yield* engine.reply(seen || !request.images ? request : { ...request, images: undefined });
      } catch (error) {
        // A reply the caller stopped is no failure of the provider.
        if (error instanceof EngineFailure && error.reason !== 'aborted') {
          onReply?.({ provider: engine.name, ok: false, reason: error.reason });
          eventLog?.record({
            level: 'error',
            category: 'ai',
            event: 'ai.provider_failed',
            message: `AI provider ${current.provider} failed: ${error.reason}`,
            context: {
              provider: current.provider,
              model: current.provider === 'builtin' ? null : (current.model ?? null),
              reason: error.reason,
              status: error.status ?? null,
              agent: request.agent.name,
            },
          });
        }
        throw error;
      }
      onReply?.({ provider: engine.name, ok: true });
    },
  };
}

/**
 * The monitor's check of the provider `config` names: the builtin engine is always there; an
 * OpenAI-compatible one is asked for its models (no completion is spent), within `timeoutMs`.
 */
export async function probeProvider(
  config: EngineConfig,
  { timeoutMs }: { timeoutMs: number },
): Promise<ProviderProbe> {
  if (config.provider === 'builtin') return { ok: true, latencyMs: 0 };
  if (!config.baseUrl) return { ok: false, latencyMs: 0, reason: 'connection' };
  return probeOpenAI({ baseUrl: config.baseUrl, apiKey: config.apiKey, timeoutMs });
}

/** The most a connection test reads of a provider's answer: a one-line reply is a few kilobytes. */
export const CHECK_MAX_RESPONSE_BYTES = 256 * 1024;
/** The longest reply a connection test asks for and keeps. */
export const CHECK_REPLY_CHARS = 200;

/** A stand-in agent for the test: no knowledge, no skills, a short answer. */
const CHECK_AGENT: { name: string; configuration: AgentConfiguration } = {
  name: 'connection-test',
  configuration: {
    instructions:
      'This is a connection test from the administration panel. Answer with one short, friendly line.',
    welcomeMessage: { 'pt-BR': '', 'en-US': '', 'es-ES': '' },
    model: { model: null, temperature: 0, maxReplyLength: CHECK_REPLY_CHARS },
    knowledge: [],
    capabilities: { skills: [], fallback: 'notFound' },
  },
};

/**
 * Test connection: one real completion through the provider `config` names (a greeting in
 * `language`), without storing anything. It never takes longer than the configuration's timeout in
 * all, nor reads more than CHECK_MAX_RESPONSE_BYTES; every failure of the provider is a result
 * (its reason and HTTP status), not an exception.
 */
export async function checkProvider(
  config: EngineConfig,
  { language, translate }: { language: Language; translate?: Translator },
): Promise<ProviderCheck> {
  const t = (translate ?? createTranslator())(language);
  const engine = createEngine(config, { translate, maxResponseBytes: CHECK_MAX_RESPONSE_BYTES });
  const deadline = AbortSignal.timeout(config.timeoutMs);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let text = '';
  try {
    for await (const piece of engine.reply({
      agent: CHECK_AGENT,
      message: t('aiProvider.testPrompt'),
      language,
      signal: deadline,
    })) {
      text += piece;
    }
    const latencyMs = latency();
    // The chat model answers: the transcription model, when there is one, is asked next.
    const transcription = await checkTranscription(config);
    return {
      ok: true,
      latencyMs,
      reply: text.trim().slice(0, CHECK_REPLY_CHARS),
      ...(transcription ? { transcription } : {}),
    };
  } catch (error) {
    if (!(error instanceof EngineFailure)) throw error;
    // The test's own deadline is the provider's timeout, whichever of the two noticed first.
    const reason = error.reason === 'aborted' && deadline.aborted ? 'timeout' : error.reason;
    return {
      ok: false,
      latencyMs: latency(),
      reason,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  }
}
