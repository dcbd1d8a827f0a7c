// RFC 2047 encoded-words in HTTP headers (`=?UTF-8?B?...?=`): a header carries only ASCII safely, so some ntfy
// clients send a title or tags this way, and ntfy decodes them. Pure; Node's own TextDecoder and Buffer only.

import { TextDecoder } from 'node:util';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** `=?charset?B?base64?=` or `=?charset?Q?quoted?=`. */
const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

/**
 * Decodes the encoded-words of a header value. The blanks between two encoded-words belong to the encoding and go
 * (RFC 2047 section 6.2). A value with a word in a charset not read here stays as it was written, as ntfy leaves it.
 */
export function decodeEncodedWords(value: string): string {
  if (!value.includes('=?')) return value;
  let decoded = '';
  let last = 0;
  for (const word of value.matchAll(ENCODED_WORD)) {
    const text = decodeWord(word[1]!, word[2]!, word[3]!);
    if (text === undefined) return value;
    const between = value.slice(last, word.index);
    if (last === 0 || /\S/.test(between)) decoded += between;
    decoded += text;
    last = word.index + word[0].length;
  }
  return decoded + value.slice(last);
}

function decodeWord(charset: string, encoding: string, text: string): string | undefined {
  const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedBytes(text);
  // RFC 2231 lets a language follow the charset (`UTF-8*en`); it changes nothing here.
  switch (charset.split('*')[0]!.toLowerCase()) {
    case 'utf-8':
    case 'utf8':
      try {
        return UTF8.decode(bytes);
      } catch {
        return undefined;
      }
    case 'us-ascii':
    case 'iso-8859-1':
    case 'latin1':
      return bytes.toString('latin1');
    default:
      return undefined;
  }
}

/** The Q encoding: `_` is a space and `=XX` a byte in hex. */
function quotedBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const hex = /^=([0-9A-Fa-f]{2})/.exec(text.slice(at, at + 3));
    if (hex) {
      bytes.push(parseInt(hex[1]!, 16));
      at += 2;
    } else if (text[at] === '_') bytes.push(0x20);
    else bytes.push(...Buffer.from(text[at]!, 'utf8')); // a header carries ASCII here; anything else is kept as UTF-8
  }
  return Buffer.from(bytes);
}
