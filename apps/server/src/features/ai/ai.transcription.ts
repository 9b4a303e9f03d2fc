import { sliceWhole } from '@contrateia/shared';
import type { EventLog } from '@/lib/event-log';
import { EngineFailure, throwIfAborted } from './ai.errors';
import { byteLimit, errorCode, excerpt, reasonOfStatus, redactKey } from './ai.openai';
import type { EngineConfig, ProviderProbe } from './ai.service';

/**
 * Speech to text through an OpenAI-compatible provider: `POST {baseUrl}/audio/transcriptions`,
 * multipart (`file`, `model`, `response_format=json`), as OpenAI, vLLM, faster-whisper servers
 * and whisper.cpp's server (with its OpenAI path) accept it; the answer is `{ "text": … }`.
 * As with a completion, the key goes only to the address given, a redirect is never followed,
 * and every way the request fails is an EngineFailure with no key in it.
 */

/** Far above a transcript's JSON: a two-hour voice note says some 100 KB of words. */
export const TRANSCRIPT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** The most of a transcript kept: as long as a WhatsApp text may be. */
export const TRANSCRIPT_MAX_CHARS = 65_536;

/** An audio file to transcribe: its real type (read from its bytes) and the bytes. */
export type TranscriptionAudio = { mimetype: string; data: Buffer };

/**
 * The file name a provider reads the format from (OpenAI's checks the extension against flac,
 * mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm): WhatsApp's voice notes are Ogg Opus, whose own
 * extension (.opus) it refuses.
 */
const EXTENSIONS: [RegExp, string][] = [
  [/^audio\/(ogg|opus)/, 'ogg'],
  [/^audio\/(mpeg|mp3)/, 'mp3'],
  [/^audio\/(mp4|x-m4a|m4a|aac)/, 'm4a'],
  [/^video\/mp4/, 'mp4'],
  [/^audio\/(wav|x-wav|wave|vnd\.wave)/, 'wav'],
  [/^(audio|video)\/webm/, 'webm'],
  [/^audio\/(x-)?flac/, 'flac'],
];

export function transcriptionFileName(mimetype: string): string {
  const type = mimetype.split(';')[0]!.trim().toLowerCase();
  const extension = EXTENSIONS.find(([pattern]) => pattern.test(type))?.[1] ?? 'ogg';
  return `audio.${extension}`;
}

/**
 * The words of `audio`, as the provider's `model` heard them (trimmed, at most
 * TRANSCRIPT_MAX_CHARS; '' when it heard none). Bounded by `timeoutMs` in all and by
 * TRANSCRIPT_MAX_RESPONSE_BYTES; `signal` stops it (an `aborted` failure).
 */
export async function transcribeOpenAI({
  baseUrl,
  apiKey,
  model,
  timeoutMs,
  audio,
  signal,
  maxResponseBytes = TRANSCRIPT_MAX_RESPONSE_BYTES,
}: {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  audio: TranscriptionAudio;
  signal?: AbortSignal;
  maxResponseBytes?: number;
}): Promise<string> {
  throwIfAborted(signal);
  const deadline = AbortSignal.timeout(timeoutMs);
  const both = signal ? AbortSignal.any([deadline, signal]) : deadline;
  const form = new FormData();
  form.append(
    'file',
    new Blob([audio.data], { type: audio.mimetype }),
    transcriptionFileName(audio.mimetype),
  );
  form.append('model', model);
  form.append('response_format', 'json');
  const failed = (error: unknown): EngineFailure => {
    if (error instanceof EngineFailure) return error;
    if (signal?.aborted)
      return new EngineFailure('aborted', 'The request was aborted', { cause: signal.reason });
    if (deadline.aborted)
      return new EngineFailure('timeout', `No transcript from the provider within ${timeoutMs} ms`);
    const code = errorCode(error);
    return new EngineFailure(
      'connection',
      `Could not reach the provider${code ? ` (${code})` : ''}`,
      { cause: error },
    );
  };

  let body: string;
  let status: number;
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/audio/transcriptions`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: form,
      redirect: 'manual',
      signal: both,
    });
    status = response.status;
    body = await readBounded(response, maxResponseBytes);
  } catch (error) {
    throw failed(error);
  }
  if (status < 200 || status >= 300) {
    // Some providers echo part of the key in a 401; the excerpt goes to the log.
    throw new EngineFailure(reasonOfStatus(status), `The provider answered ${status}`, {
      status,
      detail: excerpt(redactKey(body, apiKey)),
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new EngineFailure('malformed', 'The transcript is not JSON', {
      cause: error,
      detail: excerpt(redactKey(body, apiKey)),
    });
  }
  const text =
    typeof json === 'object' && json !== null ? (json as { text?: unknown }).text : undefined;
  if (typeof text !== 'string')
    throw new EngineFailure('malformed', 'The transcript has no text', {
      detail: excerpt(redactKey(body, apiKey)),
    });
  return sliceWhole(text.trim(), TRANSCRIPT_MAX_CHARS);
}

/**
 * Half a second of silence as a WAV file (16 kHz, mono, 16-bit PCM): what Test connection asks the
 * transcription model to hear. Any transcript, an empty one included, says the model answers.
 */
export function silentWav(): Buffer {
  const rate = 16_000;
  const samples = rate / 2;
  const data = samples * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16); // the format chunk's size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // bytes a second
  header.writeUInt16LE(2, 32); // bytes a sample
  header.writeUInt16LE(16, 34); // bits a sample
  header.write('data', 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/**
 * Test connection's second half: the transcription model `config` names hears half a second of
 * silence, within the configuration's timeout; undefined when there is no transcription model (or
 * the provider cannot have one). Every failure of the provider is a result, not an exception.
 */
export async function checkTranscription(config: EngineConfig): Promise<ProviderProbe | undefined> {
  if (config.provider !== 'openai' || !config.baseUrl || !config.transcriptionModel)
    return undefined;
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    await transcribeOpenAI({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      model: config.transcriptionModel,
      timeoutMs: config.timeoutMs,
      audio: { mimetype: 'audio/wav', data: silentWav() },
    });
    return { ok: true, latencyMs: latency() };
  } catch (error) {
    if (!(error instanceof EngineFailure)) throw error;
    return {
      ok: false,
      latencyMs: latency(),
      reason: error.reason,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  }
}

/** The response's body as text, failing as `too-large` past `max` bytes. */
async function readBounded(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.pipeThrough(byteLimit(max)).getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** What the provider in force takes besides text, as the admin set it. */
export type MediaAbilities = {
  /** Voice notes are transcribed: an OpenAI-compatible provider with a transcription model. */
  transcribe: boolean;
  /** Pictures go to the chat model: an OpenAI-compatible provider marked as seeing. */
  vision: boolean;
};

export type MediaUnderstanding = ReturnType<typeof createMediaUnderstanding>;

/**
 * Voice notes and pictures as the provider in force takes them (`config()`: the admin's settings,
 * else the AI_* variables, read at each call so that a change is in force at once). The builtin
 * engine neither hears nor sees: its settings are kept, unused.
 */
export function createMediaUnderstanding({
  config,
  eventLog,
}: {
  config: () => Promise<EngineConfig>;
  /** The stored log: each failed transcription (which model, why; never the key or the audio). */
  eventLog?: EventLog;
}) {
  const abilitiesOf = (current: EngineConfig): MediaAbilities => {
    const openai = current.provider === 'openai' && Boolean(current.baseUrl);
    return {
      transcribe: openai && Boolean(current.transcriptionModel),
      vision: openai && Boolean(current.vision),
    };
  };
  return {
    abilities: async (): Promise<MediaAbilities> => abilitiesOf(await config()),

    /**
     * The audio's words through the transcription model in force (see transcribeOpenAI);
     * undefined when none is set (any more). Throws EngineFailure when the provider fails.
     */
    async transcribe({
      audio,
      signal,
    }: {
      audio: TranscriptionAudio;
      signal?: AbortSignal;
    }): Promise<string | undefined> {
      const current = await config();
      if (!abilitiesOf(current).transcribe || !current.baseUrl || !current.transcriptionModel)
        return undefined;
      try {
        return await transcribeOpenAI({
          baseUrl: current.baseUrl,
          // engineConfig gives the key only for the base URL it was saved with.
          apiKey: current.apiKey,
          model: current.transcriptionModel,
          timeoutMs: current.timeoutMs,
          audio,
          signal,
        });
      } catch (error) {
        if (error instanceof EngineFailure && error.reason !== 'aborted')
          eventLog?.record({
            level: 'error',
            category: 'ai',
            event: 'ai.transcription_failed',
            message: `Transcribing a voice note through ${current.transcriptionModel} failed: ${error.reason}`,
            context: {
              model: current.transcriptionModel,
              reason: error.reason,
              status: error.status ?? null,
            },
          });
        throw error;
      }
    },
  };
}
