/** Cuts text to at most `maxBytes` of UTF-8, at a character boundary (never half a character). */
export function cutUTF8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // a continuation byte: its character began earlier
  return bytes.subarray(0, end).toString('utf8');
}
