// The PNG container around rows of pixels that are ready (each led by its filter byte): the signature, the header,
// the compressed rows and the end, each chunk with its CRC. Deflated on the thread pool, so a large picture does not
// hold up the event loop. Used for drawn cards (templates-renderer/png.ts) and other programs' raw banner pictures
// (daemon/core/media/raw-image.ts).

import { crc32, deflate } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG's colour types used here, 8 bits per channel. */
export const PNG_RGB = 2;
export const PNG_RGBA = 6;

/** A PNG of `height` rows of `width` pixels; `scanlines` holds each row led by filter byte 0. */
export async function pngFromScanlines(
  width: number,
  height: number,
  colorType: number,
  scanlines: Buffer,
  level: number,
): Promise<Buffer> {
  const compressed = await new Promise<Buffer>((resolve, reject) =>
    deflate(scanlines, { level }, (error, result) => (error ? reject(error) : resolve(result))),
  );
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = colorType;
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', compressed), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}
