// PNG encoding of a drawn canvas. node-canvas's own encoder spends ~10 ms on a 2x banner whatever its compression
// level; its raw pixels plus Node's zlib (on the thread pool) take a third of that, and the deflate does not hold up
// the event loop (docs/performance-history.md, "bench:render: drawing cards, and previews under load").

import { endianness } from 'node:os';
import type { Canvas } from 'canvas';
import { pngFromScanlines, PNG_RGBA } from '../common/png.js';

/** Fast deflate: banners are flat colours and text, which compress well at level 1 already. */
const DEFLATE_LEVEL = 1;

/** The canvas as a PNG (straight-alpha RGBA; the canvas holds premultiplied BGRA in native order). */
export async function encodePNG(canvas: Canvas): Promise<Buffer> {
  const { width, height } = canvas;
  // The raw layout read below is little-endian; elsewhere node-canvas's own encoder is used.
  if (endianness() !== 'LE') return canvas.toBuffer('image/png');
  return pngFromScanlines(width, height, PNG_RGBA, toScanlines(canvas.toBuffer('raw'), width, height), DEFLATE_LEVEL);
}

/**
 * Premultiplied BGRA (cairo's ARGB32 on a little-endian machine) to straight RGBA rows, each led by filter byte 0.
 * Opaque and clear pixels (most of a card) skip the division.
 */
function toScanlines(raw: Buffer, width: number, height: number): Buffer {
  const out = Buffer.alloc((width * 4 + 1) * height);
  let o = 0;
  let i = 0;
  for (let y = 0; y < height; y++) {
    out[o++] = 0;
    for (let x = 0; x < width; x++, i += 4, o += 4) {
      const alpha = raw[i + 3]!;
      if (alpha === 0) continue;
      if (alpha === 255) {
        out[o] = raw[i + 2]!;
        out[o + 1] = raw[i + 1]!;
        out[o + 2] = raw[i]!;
      } else {
        out[o] = Math.min(255, ((raw[i + 2]! * 255 + (alpha >> 1)) / alpha) | 0);
        out[o + 1] = Math.min(255, ((raw[i + 1]! * 255 + (alpha >> 1)) / alpha) | 0);
        out[o + 2] = Math.min(255, ((raw[i]! * 255 + (alpha >> 1)) / alpha) | 0);
      }
      out[o + 3] = alpha;
    }
  }
  return out;
}
