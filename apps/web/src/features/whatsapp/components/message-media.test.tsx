// @vitest-environment happy-dom
import type { WhatsAppMedia } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageMedia } from '@/features/whatsapp/components/message-media';
import { emulateDialogCloseRequests } from '@/test/browser';
import { renderWithProviders } from '@/test/render-with-providers';

// What the owner sees of a customer's photo, voice note, video, document, place or contact card.

const URL = '/api/whatsapp/media/m1?expires=1&signature=abc';

async function show(media: WhatsAppMedia, language: 'pt-BR' | 'en-US' | 'es-ES' = 'pt-BR') {
  return renderWithProviders(<MessageMedia media={media} />, { language, texts: ['whatsapp'] });
}

describe('a message’s media', () => {
  it('shows a photo as a thumbnail that opens full size, with a download, and closes', async () => {
    emulateDialogCloseRequests();
    const { user } = await show({
      kind: 'image',
      mimetype: 'image/jpeg',
      size: 48_000,
      caption: 'Minha carteirinha',
      url: URL,
    });
    const thumbnail = screen.getByRole('img', { name: 'Minha carteirinha' });
    expect(thumbnail).toHaveAttribute('src', URL);
    await user.click(screen.getByRole('button', { name: 'Foto: ver em tamanho real' }));
    const viewer = screen.getByRole('dialog', { name: 'Foto' });
    expect(within(viewer).getByRole('img', { name: 'Minha carteirinha' })).toHaveAttribute(
      'src',
      URL,
    );
    expect(within(viewer).getByRole('link', { name: 'Baixar' })).toHaveAttribute('href', URL);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('plays a voice note, with its length and what was said once transcribed', async () => {
    const { container } = await show({
      kind: 'audio',
      voice: true,
      mimetype: 'audio/ogg',
      seconds: 73,
      transcript: 'Oi, queria marcar uma limpeza para sexta.',
      url: URL,
    });
    expect(screen.getByText('Mensagem de voz')).toBeInTheDocument();
    expect(screen.getByText('· 1:13', { exact: false })).toBeInTheDocument();
    expect(container.querySelector('audio')).toHaveAttribute('src', URL);
    expect(screen.getByText('Transcrição')).toBeInTheDocument();
    expect(screen.getByText('Oi, queria marcar uma limpeza para sexta.')).toBeInTheDocument();
  });

  it("plays a video, showing the sender's still until it plays", async () => {
    const poster = 'data:image/jpeg;base64,/9j/4AAQ';
    const { container } = await show({
      kind: 'video',
      mimetype: 'video/mp4',
      seconds: 9,
      url: URL,
      poster,
    });
    expect(container.querySelector('video')).toHaveAttribute('src', URL);
    expect(container.querySelector('video')).toHaveAttribute('poster', poster);
    expect(screen.getByText('Vídeo · 0:09')).toBeInTheDocument();
  });

  it('plays a video without a still from its first frame', async () => {
    const { container } = await show({ kind: 'video', mimetype: 'video/mp4', url: URL });
    expect(container.querySelector('video')).not.toHaveAttribute('poster');
    expect(container.querySelector('video')).toHaveAttribute('preload', 'metadata');
  });

  it('offers a document by its name, size and type, to download', async () => {
    await show(
      {
        kind: 'document',
        mimetype: 'application/pdf',
        fileName: 'exame-sangue.pdf',
        size: 1_572_864,
        url: URL,
      },
      'en-US',
    );
    expect(screen.getByText('exame-sangue.pdf')).toBeInTheDocument();
    expect(screen.getByText('1.5 MB · PDF')).toBeInTheDocument();
    const download = screen.getByRole('link', { name: 'Download exame-sangue.pdf' });
    expect(download).toHaveAttribute('href', URL);
    expect(download).toHaveAttribute('download', 'exame-sangue.pdf');
  });

  it('shows a location with its place, coordinates in the reader’s notation, and a map link', async () => {
    await show({
      kind: 'location',
      latitude: -23.561414,
      longitude: -46.655881,
      place: 'Av. Paulista, 1000',
    });
    expect(screen.getByText('Av. Paulista, 1000')).toBeInTheDocument();
    expect(screen.getByText('-23,56141, -46,65588')).toBeInTheDocument();
    const map = screen.getByRole('link', { name: 'Ver no mapa' });
    expect(map).toHaveAttribute(
      'href',
      'https://www.google.com/maps/search/?api=1&query=-23.561414,-46.655881',
    );
    expect(map).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows a contact card’s name and number', async () => {
    await show(
      { kind: 'contact', contactName: 'Dra. Paula', contactNumber: '+55 11 97777-6666' },
      'es-ES',
    );
    expect(screen.getByText('Contacto compartido')).toBeInTheDocument();
    expect(screen.getByText('Dra. Paula')).toBeInTheDocument();
    expect(screen.getByText('+55 11 97777-6666')).toBeInTheDocument();
  });

  it('says why a file is not there, and offers nothing to open', async () => {
    const { container } = await show({
      kind: 'video',
      mimetype: 'video/mp4',
      size: 40 * 1024 * 1024,
      unavailable: 'too-large',
    });
    expect(screen.getByText('Vídeo · 40 MB')).toBeInTheDocument();
    expect(screen.getByText('Arquivo grande demais para guardar.')).toBeInTheDocument();
    expect(container.querySelector('video, a, img')).toBeNull();
  });

  it('says a photo older than the retention is gone', async () => {
    await show({ kind: 'image', mimetype: 'image/jpeg', unavailable: 'expired' }, 'en-US');
    expect(screen.getByText('Photo')).toBeInTheDocument();
    expect(
      screen.getByText('This file has been deleted: files are kept for a limited time.'),
    ).toBeInTheDocument();
  });
});
