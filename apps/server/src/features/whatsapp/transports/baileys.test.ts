import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { toInboundMessage } from './baileys';

// What the service receives of Baileys' `messages.upsert`.

const base = {
  key: { id: 'ABC123', remoteJid: '5511988887777@s.whatsapp.net', fromMe: false },
  messageTimestamp: 1_790_000_000,
} satisfies Partial<WAMessage>;

describe('toInboundMessage', () => {
  it('takes the text of a plain message, with who sent it and when', () => {
    expect(
      toInboundMessage({ ...base, pushName: 'Ana', message: { conversation: 'Olá' } }),
    ).toEqual({
      id: 'ABC123',
      remoteJid: '5511988887777@s.whatsapp.net',
      fromMe: false,
      pushName: 'Ana',
      text: 'Olá',
      timestamp: new Date(1_790_000_000_000),
    });
  });

  it('reads extended text (links, replies) and disappearing messages the same way', () => {
    expect(
      toInboundMessage({ ...base, message: { extendedTextMessage: { text: 'see https://x.y' } } })
        ?.text,
    ).toBe('see https://x.y');
    expect(
      toInboundMessage({
        ...base,
        message: { ephemeralMessage: { message: { conversation: 'some time' } } },
      })?.text,
    ).toBe('some time');
  });

  it('keeps both addresses of a LID contact and the participant of a group', () => {
    const message = toInboundMessage({
      ...base,
      key: {
        id: 'X',
        remoteJid: '123@g.us',
        participant: '777@lid',
        remoteJidAlt: '5511@s.whatsapp.net',
        fromMe: true,
      },
      message: { conversation: 'hi' },
    });
    expect(message).toMatchObject({
      remoteJid: '123@g.us',
      remoteJidAlt: '5511@s.whatsapp.net',
      participant: '777@lid',
      fromMe: true,
    });
  });

  it('marks protocol messages, and gives media its caption as text', () => {
    const revoke = toInboundMessage({
      ...base,
      message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } },
    });
    expect(revoke).toMatchObject({ protocol: true });
    expect(revoke?.text).toBeUndefined();
    // A photo's caption is what its sender wrote with it; a photo without one has no text.
    expect(
      toInboundMessage({ ...base, message: { imageMessage: { caption: 'x' } } }),
    ).toMatchObject({ text: 'x', media: { kind: 'image' } });
    expect(toInboundMessage({ ...base, message: { imageMessage: {} } })).not.toHaveProperty('text');
  });

  it('skips a message without an id or chat', () => {
    expect(
      toInboundMessage({
        ...base,
        key: { remoteJid: 'a@s.whatsapp.net' },
        message: { conversation: 'x' },
      }),
    ).toBeUndefined();
  });

  it('makes ill-formed text well-formed: a lone half of an emoji in the text or the name becomes U+FFFD, as UTF-8 would carry it', () => {
    const message = toInboundMessage({
      ...base,
      pushName: 'Zé \ud83d',
      message: { conversation: 'Oi \ud83d tudo bem? 😀' },
    });
    expect(message).toMatchObject({ pushName: 'Zé \uFFFD', text: 'Oi \uFFFD tudo bem? 😀' });
  });

  it('marks a history sync notification as a protocol message, never a text to store', () => {
    const inbound = toInboundMessage({
      ...base,
      message: {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
          historySyncNotification: {
            syncType: proto.HistorySync.HistorySyncType.RECENT,
            chunkOrder: 1,
          },
        },
      },
    });
    expect(inbound).toMatchObject({ id: 'ABC123', protocol: true });
    expect(inbound?.text).toBeUndefined();
  });
});
