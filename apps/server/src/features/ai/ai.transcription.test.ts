import { afterEach, describe, expect, it } from 'vitest';
import {
  startFakeOpenAI,
  type FakeOpenAI,
  type FakeOpenAIOptions,
} from '../../../test/fake-openai';
import { voiceNote } from '../../../test/media';
import { EngineFailure } from './ai.service';
import { transcribeOpenAI, transcriptionFileName } from './ai.transcription';

// Speech to text through the fake provider, which reads the multipart upload with a real parser:
// what is sent, and each way a provider fails, ending in an EngineFailure without the key.

const API_KEY = 'sk-test-transcription-0123456789';
let fake: FakeOpenAI | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function transcribe(
  transcription: FakeOpenAIOptions['transcription'],
  { hang = false, timeoutMs = 5_000, maxResponseBytes, headers } = {} as {
    hang?: boolean;
    timeoutMs?: number;
    maxResponseBytes?: number;
    headers?: Record<string, string>;
  },
) {
  fake = await startFakeOpenAI({ transcription, hang, headers });
  return transcribeOpenAI({
    baseUrl: `${fake.url}/`,
    apiKey: API_KEY,
    model: 'whisper-1',
    timeoutMs,
    audio: { mimetype: 'audio/ogg; codecs=opus', data: voiceNote() },
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  });
}

async function failure(promise: Promise<unknown>): Promise<EngineFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EngineFailure);
  return error as EngineFailure;
}

describe('transcribing a voice note through an OpenAI-compatible provider', () => {
  it('uploads the file with its type, a name the provider reads the format from, and the model; answers the words', async () => {
    expect(await transcribe({ text: '  Vocês abrem no sábado?  ' })).toBe('Vocês abrem no sábado?');
    const [request, ...more] = fake!.requests;
    expect(more).toEqual([]);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/audio/transcriptions' });
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.multipart!.fields).toEqual({ model: 'whisper-1', response_format: 'json' });
    const [file] = request!.multipart!.files;
    expect(file).toMatchObject({ field: 'file', filename: 'audio.ogg', mimeType: 'audio/ogg' });
    expect(file!.data.equals(voiceNote())).toBe(true);
  });

  it('names each audio type as providers accept it', () => {
    expect(transcriptionFileName('audio/ogg; codecs=opus')).toBe('audio.ogg');
    expect(transcriptionFileName('audio/mpeg')).toBe('audio.mp3');
    expect(transcriptionFileName('audio/mp4')).toBe('audio.m4a');
    expect(transcriptionFileName('video/mp4')).toBe('audio.mp4');
    expect(transcriptionFileName('audio/wav')).toBe('audio.wav');
    expect(transcriptionFileName('audio/webm')).toBe('audio.webm');
    expect(transcriptionFileName('audio/x-flac')).toBe('audio.flac');
  });

  it('fails as the status says, with the key taken out of what it quotes', async () => {
    const refused = await failure(
      transcribe({ status: 401, errorBody: `{"error":"invalid key ${API_KEY}"}` }),
    );
    expect(refused).toMatchObject({ reason: 'status-401', status: 401 });
    expect(refused.detail).toContain('invalid key [api key]');
    expect(refused.detail).not.toContain(API_KEY);
    expect(await failure(transcribe({ status: 503 }))).toMatchObject({ reason: 'status-5xx' });
  });

  it('never follows a redirect', async () => {
    const moved = await failure(
      transcribe({ status: 307 }, { headers: { location: 'http://127.0.0.1:9/steal' } }),
    );
    expect(moved.reason).toBe('redirect');
    expect(fake!.requests).toHaveLength(1);
  });

  it('gives up after the timeout when the provider is silent', async () => {
    const started = performance.now();
    expect(await failure(transcribe({}, { hang: true, timeoutMs: 300 }))).toMatchObject({
      reason: 'timeout',
    });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('refuses an answer larger than its bound, and one that is not a transcript', async () => {
    expect(
      await failure(transcribe({ text: 'palavra '.repeat(1000) }, { maxResponseBytes: 1024 })),
    ).toMatchObject({ reason: 'too-large' });
    await fake?.close();
    expect(await failure(transcribe({ raw: '<html>Bad gateway</html>' }))).toMatchObject({
      reason: 'malformed',
    });
    await fake?.close();
    expect(await failure(transcribe({ raw: '{"words":[]}' }))).toMatchObject({
      reason: 'malformed',
    });
  });

  it('says a provider that cannot be reached is unreachable', async () => {
    const unreachable = await failure(
      transcribeOpenAI({
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'whisper-1',
        timeoutMs: 2_000,
        audio: { mimetype: 'audio/ogg', data: voiceNote() },
      }),
    );
    expect(unreachable.reason).toBe('connection');
  });
});
