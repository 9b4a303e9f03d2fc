import type { Language } from '@contrateia/shared';
import type { Translate } from '@/lib/i18n';
import { createBuiltinEngine } from './ai.builtin';
import type { AgentEngine } from './ai.service';
import { createOpenAIEngine } from './ai.openai';

// The one place that knows every provider: app.ts builds its engine here, and everything else
// sees only the AgentEngine interface (ai.service.ts).

export type EngineConfig = {
  provider: 'builtin' | 'openai';
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs: number;
};

/**
 * Builds the engine AI_PROVIDER names; `openai` needs a base URL (config.ts checks it first).
 * `translate` is the app's translator, for the sentences an engine words itself.
 */
export function createEngine(config: EngineConfig, { translate }: { translate?: (language: Language) => Translate } = {}): AgentEngine {
  if (config.provider === 'builtin') return createBuiltinEngine({ translate });
  if (!config.baseUrl) throw new Error('AI_BASE_URL is required when AI_PROVIDER is openai');
  return createOpenAIEngine({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    timeoutMs: config.timeoutMs,
    translate,
  });
}
