// common/png.ts: rows of pixels in a PNG that a PNG reader takes back to the same pixels (Node's zlib inflates the
// data; every chunk's CRC is checked), RGB and RGBA; and other programs' raw banner pictures
// (daemon/core/media/raw-image.ts): the row stride is honoured, and what the specification does not describe is no
// picture.

import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, test } from '@jest/globals';
import { pngFromScanlines, PNG_RGB, PNG_RGBA } from '../../common/png.js';
import { MAX_RAW_IMAGE_SIDE, pngOfRawImage } from '../../daemon/core/media/raw-image.js';

/** The chunks of a PNG, each CRC checked. */
function chunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const found: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(data, crc32(Buffer.from(type, 'latin1'))));
    found.push({ type, data });
    at += 12 + length;
  }
  return found;
}

/** Width, height, colour type and the rows (without their filter bytes) of a PNG this module made. */
function read(png: Buffer): { width: number; height: number; colorType: number; rows: Buffer[] } {
  const [header, data, end] = chunks(png);
  expect([header!.type, data!.type, end!.type]).toEqual(['IHDR', 'IDAT', 'IEND']);
  const width = header!.data.readUInt32BE(0);
  const height = header!.data.readUInt32BE(4);
  const colorType = header!.data[9]!;
  const bytes = colorType === PNG_RGBA ? 4 : 3;
  const raw = inflateSync(data!.data);
  const rows = Array.from({ length: height }, (_, row) => {
    expect(raw[row * (width * bytes + 1)]).toBe(0); // filter: none
    return raw.subarray(row * (width * bytes + 1) + 1, (row + 1) * (width * bytes + 1));
  });
  return { width, height, colorType, rows };
}

describe('PNG', () => {
  test('rows of RGBA pixels come back as they went in', async () => {
    const rows = [Buffer.from([255, 0, 0, 255, 0, 255, 0, 128]), Buffer.from([0, 0, 255, 0, 9, 9, 9, 9])];
    const png = await pngFromScanlines(2, 2, PNG_RGBA, Buffer.concat(rows.flatMap((row) => [Buffer.from([0]), row])), 6);
    expect(read(png)).toEqual({ width: 2, height: 2, colorType: PNG_RGBA, rows });
  });

  test('a raw image: its row stride is skipped over, RGB and RGBA', async () => {
    // Two rows of two RGB pixels, each row padded to 8 bytes as toolkits align them.
    const data = Buffer.from([1, 2, 3, 4, 5, 6, 0xee, 0xee, 7, 8, 9, 10, 11, 12, 0xee, 0xee]);
    const rgb = await pngOfRawImage({ width: 2, height: 2, rowStride: 8, hasAlpha: false, bitsPerSample: 8, channels: 3, data });
    expect(read(rgb!)).toEqual({
      width: 2,
      height: 2,
      colorType: PNG_RGB,
      rows: [Buffer.from([1, 2, 3, 4, 5, 6]), Buffer.from([7, 8, 9, 10, 11, 12])],
    });
    const rgba = await pngOfRawImage({
      width: 1,
      height: 1,
      rowStride: 4,
      hasAlpha: true,
      bitsPerSample: 8,
      channels: 4,
      data: Buffer.from([1, 2, 3, 4]),
    });
    expect(read(rgba!).rows).toEqual([Buffer.from([1, 2, 3, 4])]);
  });

  test('what the specification does not describe is no picture', async () => {
    const image = { width: 2, height: 2, rowStride: 6, hasAlpha: false, bitsPerSample: 8, channels: 3, data: Buffer.alloc(12) };
    const cases = [
      { ...image, bitsPerSample: 16 },
      { ...image, channels: 4 }, // four channels without alpha
      { ...image, rowStride: 5 }, // a row shorter than its pixels
      { ...image, data: Buffer.alloc(11) }, // the last row cut short
      { ...image, width: 0 },
      {
        ...image,
        width: MAX_RAW_IMAGE_SIDE + 1,
        rowStride: (MAX_RAW_IMAGE_SIDE + 1) * 3,
        data: Buffer.alloc((MAX_RAW_IMAGE_SIDE + 1) * 6),
      },
    ];
    for (const broken of cases) expect(await pngOfRawImage(broken)).toBeNull();
  });
});
