import { describe, expect, it } from 'vitest';
import { formatBytes, MEGABYTE } from '@/lib/byte-format';
import { acceptedTypes, checkImageFile, extensionOf } from '@/features/images/upload-checks';

// The upload dialog's checks before sending (the server checks again from the bytes) and the sizes
// it writes.

const DEFAULT_LIMITS = {
  maxFileSize: 10,
  allowedFileTypes: ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx'],
};

const file = (name: string, size: number, type: string) =>
  new File([new Uint8Array(size)], name, { type });

describe('checkImageFile', () => {
  it('wants a file', () => {
    expect(checkImageFile(null, DEFAULT_LIMITS)).toEqual({ kind: 'noFile' });
  });

  it('wants an image by its type, whatever its name says', () => {
    expect(checkImageFile(file('cv.pdf', 10, 'application/pdf'), DEFAULT_LIMITS)).toEqual({
      kind: 'notImage',
    });
    expect(checkImageFile(file('page.png', 10, 'text/html'), DEFAULT_LIMITS)).toEqual({
      kind: 'notImage',
    });
    expect(checkImageFile(file('unknown', 10, ''), DEFAULT_LIMITS)).toEqual({ kind: 'notImage' });
  });

  it("wants an extension the admin's list allows, naming the image ones", () => {
    expect(checkImageFile(file('photo.webp', 10, 'image/webp'), DEFAULT_LIMITS)).toEqual({
      kind: 'typeNotAllowed',
      types: ['jpg', 'jpeg', 'png', 'gif'],
    });
    expect(checkImageFile(file('photo', 10, 'image/png'), DEFAULT_LIMITS)).toEqual({
      kind: 'typeNotAllowed',
      types: ['jpg', 'jpeg', 'png', 'gif'],
    });
    // Case does not matter.
    expect(checkImageFile(file('PHOTO.JPG', 10, 'image/jpeg'), DEFAULT_LIMITS)).toBeNull();
  });

  it('wants at most the maximum size, in megabytes of 1024 × 1024 bytes', () => {
    const limits = { ...DEFAULT_LIMITS, maxFileSize: 1 };
    expect(checkImageFile(file('a.png', MEGABYTE, 'image/png'), limits)).toBeNull();
    expect(checkImageFile(file('a.png', MEGABYTE + 1, 'image/png'), limits)).toEqual({
      kind: 'tooLarge',
      maxBytes: MEGABYTE,
    });
  });

  it('checks only the kind of file while the settings are not known', () => {
    expect(checkImageFile(file('photo.webp', 50 * MEGABYTE, 'image/webp'))).toBeNull();
    expect(checkImageFile(file('cv.pdf', 10, 'application/pdf'))).toEqual({ kind: 'notImage' });
  });
});

describe('acceptedTypes', () => {
  it('lists the whole list when it names no image type', () => {
    expect(acceptedTypes({ maxFileSize: 10, allowedFileTypes: ['pdf', 'doc'] })).toEqual([
      'pdf',
      'doc',
    ]);
  });
});

describe('extensionOf', () => {
  it('is the lower-case part after the last dot, none for a name starting with it', () => {
    expect(extensionOf('a.b.PNG')).toBe('png');
    expect(extensionOf('.png')).toBe('');
    expect(extensionOf('noext')).toBe('');
  });
});

describe('formatBytes', () => {
  it('writes sizes in the language, in steps of 1024', () => {
    expect(formatBytes(0, 'en-US')).toBe('0 kB');
    expect(formatBytes(512, 'en-US')).toBe('0.5 kB');
    expect(formatBytes(1_572_864, 'en-US')).toBe('1.5 MB');
    expect(formatBytes(1_572_864, 'pt-BR')).toBe('1,5 MB');
    expect(formatBytes(245_760, 'es-ES')).toBe('240 kB');
    expect(formatBytes(10 * MEGABYTE, 'en-US')).toBe('10 MB');
  });
});
