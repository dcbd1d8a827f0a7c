// Which picture format some bytes are, judged by the bytes alone (never by a file name or a MIME type a sender
// chose). docs/api/notifications.md#n9: checked by its bytes: PNG, JPEG, GIF, WebP, HEIC, AVIF, TIFF, BMP.

export type ImageFormat = 'png' | 'jpg' | 'gif' | 'webp' | 'tiff' | 'bmp' | 'heic' | 'avif';

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
/** Sizes of the DIB headers a real BMP carries right after its 14-byte file header. */
const BMP_DIB_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

const ascii = (bytes: Buffer, start: number, end: number): string => bytes.toString('latin1', start, end);

export function sniffImage(bytes: Buffer): ImageFormat | null {
  if (bytes.length < 12) return null;
  if (bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  const head6 = ascii(bytes, 0, 6);
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  const head4 = ascii(bytes, 0, 4);
  if (head4 === 'II*\0' || head4 === 'MM\0*') return 'tiff';
  if (head6.startsWith('BM') && bytes.length >= 18 && BMP_DIB_HEADER_SIZES.has(bytes.readUInt32LE(14))) return 'bmp';
  if (ascii(bytes, 4, 8) === 'ftyp') return isoMediaImage(bytes);
  return null;
}

/** HEIC and AVIF are ISO media files: an `ftyp` box naming a major brand and a list of compatible brands. */
function isoMediaImage(bytes: Buffer): ImageFormat | null {
  const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length);
  const brands = [ascii(bytes, 8, 12)];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'avif';
  if (brands.some((brand) => HEIC_BRANDS.has(brand))) return 'heic';
  return null;
}
