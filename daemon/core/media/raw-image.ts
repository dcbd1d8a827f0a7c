// Another program's banner picture sent as raw pixels (the notification specification's `image-data`: width,
// height, row stride, alpha, bits per sample, channels, bytes), kept as a PNG like any notification's picture.
// Only what the specification allows is read (8 bits per sample, 3 or 4 channels) and the bytes must hold every
// row: anything else is no picture, never an error.

import { pngFromScanlines, PNG_RGB, PNG_RGBA } from '../../../common/png.js';
import type { RawImage } from '../../integrations/notification-monitor.js';

/** The largest side kept: banner pictures are small, and this bounds the memory a hostile program can ask for. */
export const MAX_RAW_IMAGE_SIDE = 1024;
/** Banner pictures are small: a quick deflate is enough. */
const DEFLATE_LEVEL = 6;

/** The picture as PNG bytes; null when the raw image is not one the specification describes. */
export async function pngOfRawImage(image: RawImage): Promise<Buffer | null> {
  const { width, height, rowStride, hasAlpha, bitsPerSample, channels, data } = image;
  const valid =
    bitsPerSample === 8 &&
    channels === (hasAlpha ? 4 : 3) &&
    Number.isInteger(width) &&
    Number.isInteger(height) &&
    width > 0 &&
    height > 0 &&
    width <= MAX_RAW_IMAGE_SIDE &&
    height <= MAX_RAW_IMAGE_SIDE &&
    rowStride >= width * channels &&
    data.length >= rowStride * (height - 1) + width * channels;
  if (!valid) return null;
  const rowBytes = width * channels;
  const scanlines = Buffer.alloc((rowBytes + 1) * height);
  for (let row = 0; row < height; row++) data.copy(scanlines, row * (rowBytes + 1) + 1, row * rowStride, row * rowStride + rowBytes);
  return pngFromScanlines(width, height, hasAlpha ? PNG_RGBA : PNG_RGB, scanlines, DEFLATE_LEVEL);
}
