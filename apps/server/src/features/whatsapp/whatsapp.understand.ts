import {
  EngineFailure,
  MAX_IMAGES_PER_TURN,
  type EngineImage,
  type MediaAbilities,
} from '@/features/ai/ai.service';
import { DEFAULT_LANGUAGE, type WhatsAppContext } from './whatsapp.deps';
import * as repo from './whatsapp.repository';
import { toMessage } from './whatsapp.summaries';

/**
 * What a contact's burst says to the agent, files included, as far as the provider in force can
 * take them: texts and captions as written; a voice note by its transcript (made here, kept with
 * its message and shown to the owner at once); a photo as a picture for a model that sees. What
 * cannot be taken is never guessed at: a voice note unheard, a photo unseen or a video is named
 * (`notes`), for the reply to say so honestly; a document, location or contact card with nothing
 * written is `unknown`, for the owner's handoff rules.
 */

/**
 * A file the agent received but cannot take in: the reply says so, once per burst. `moreImages`:
 * more photos came than a turn carries (MAX_IMAGES_PER_TURN); the model saw the last ones.
 */
export type MediaNote = 'audio' | 'image' | 'video' | 'moreImages';

export type Understood = {
  /** What the contact wrote and said, in order: texts, captions, transcripts. */
  text: string;
  /** Photos for a model that sees, the last MAX_IMAGES_PER_TURN of them. */
  images: EngineImage[];
  /** How many photos came for a model that sees, those it does not see included. */
  pictures: number;
  /** Each kind of file received and not taken in, once, in the order first received. */
  notes: MediaNote[];
  /** A document, location or contact card came with nothing written: it is for a person to see. */
  unknown: boolean;
};

/** Voice notes transcribed in one try at most: a backlog of them is not a bill of its own. */
export const TRANSCRIPTIONS_PER_TRY = 5;

type UnderstandDeps = Pick<
  WhatsAppContext,
  'db' | 'clock' | 'events' | 'logger' | 'media' | 'translate' | 'understanding'
>;

/**
 * The burst `asked` as the agent takes it (see above). A voice note not yet transcribed is
 * transcribed when `abilities` allow; when that fails, `retry` throws the failure (the reply job
 * tries again, and so transcribes again), else the note is counted unheard. Pictures are read
 * only when `abilities.vision`.
 */
export async function understand(
  deps: UnderstandDeps,
  userId: string,
  asked: repo.HistoryMessage[],
  { abilities, retry, signal }: { abilities: MediaAbilities; retry: boolean; signal?: AbortSignal },
): Promise<Understood> {
  const texts: string[] = [];
  const pictures: repo.HistoryMessage[] = [];
  const notes = new Set<MediaNote>();
  let unknown = false;
  let transcriptions = 0;
  for (const message of asked) {
    const { media } = message;
    // A caption is the file's text: answered as text, whatever the file.
    if (message.text) texts.push(message.text);
    if (!media) continue;
    switch (media.kind) {
      case 'audio': {
        let transcript = media.transcript;
        if (
          transcript === undefined &&
          message.mediaFile &&
          abilities.transcribe &&
          transcriptions < TRANSCRIPTIONS_PER_TRY
        ) {
          transcriptions += 1;
          transcript = await transcribe(deps, userId, message, { retry, signal });
        }
        // Silence heard as nothing is nothing to answer; a voice note unheard is said so.
        if (transcript) texts.push(transcript);
        else if (transcript === undefined) notes.add('audio');
        break;
      }
      case 'image':
      case 'sticker':
        if (abilities.vision && message.mediaFile) pictures.push(message);
        else notes.add('image');
        break;
      case 'video':
        notes.add('video');
        break;
      case 'document':
      case 'location':
      case 'contact':
        if (!message.text) unknown = true;
        break;
    }
  }
  const images: EngineImage[] = [];
  // The earlier ones are not seen: the reply says how many came and which were looked at.
  if (pictures.length > MAX_IMAGES_PER_TURN) notes.add('moreImages');
  for (const picture of pictures.slice(-MAX_IMAGES_PER_TURN)) {
    const data = await readKept(deps, userId, picture.mediaFile!);
    if (data && picture.media?.mimetype) images.push({ mimetype: picture.media.mimetype, data });
    // Its file went (expired, or deleted on another instance) since the burst was read.
    else notes.add('image');
  }
  return {
    text: texts.join('\n'),
    images,
    pictures: pictures.length,
    notes: [...notes],
    unknown,
  };
}

/**
 * A voice note's transcript, kept with its message and shown to the owner's open pages; undefined
 * when it could not be made (no model any more, its file gone, or the provider failed without
 * `retry`). With `retry`, a provider's failure is thrown.
 */
async function transcribe(
  deps: UnderstandDeps,
  userId: string,
  message: repo.HistoryMessage,
  { retry, signal }: { retry: boolean; signal?: AbortSignal },
): Promise<string | undefined> {
  const { db, events, logger, understanding } = deps;
  const data = await readKept(deps, userId, message.mediaFile!);
  if (!data) return undefined;
  let transcript: string | undefined;
  try {
    transcript = await understanding.transcribe({
      audio: { mimetype: message.media?.mimetype ?? 'audio/ogg', data },
      signal,
    });
  } catch (error) {
    if (!(error instanceof EngineFailure)) throw error;
    logger.warn(
      { reason: error.reason, status: error.status, detail: error.detail, messageId: message.id },
      'whatsapp: a voice note could not be transcribed',
    );
    if (retry) throw error;
    return undefined;
  }
  if (transcript === undefined) return undefined;
  const row = await repo.setTranscript({ db, id: message.id, transcript });
  // Deleted for everyone meanwhile: its words are not the contact's to answer any more.
  if (!row) return undefined;
  events.emit(userId, 'whatsapp:message_updated', {
    conversationId: row.conversationId,
    message: toMessage(deps, row, DEFAULT_LANGUAGE),
  });
  return transcript;
}

/** A kept file's bytes; undefined when it is gone. */
async function readKept(
  { media }: Pick<WhatsAppContext, 'media'>,
  userId: string,
  name: string,
): Promise<Buffer | undefined> {
  const opened = await media.open(userId, name);
  if (!opened) return undefined;
  try {
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}
