import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** The text of the QR code drawn in a PNG data URL, as a phone's camera reads it. */
export function qrText(dataUrl: string): string {
  if (!dataUrl.startsWith('data:image/png;base64,'))
    throw new Error(`not a PNG data URL: ${dataUrl.slice(0, 40)}`);
  const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code in the image');
  return code.data;
}
