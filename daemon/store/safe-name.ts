import { createHash } from 'node:crypto';

/**
 * A file name for an app id, template name or other caller-chosen string. Only lower-case `[a-z0-9._-]` survive,
 * a leading dot or dash becomes `_` (no hidden files, nothing that reads as a command-line option), and whenever anything had to change a short hash of the original is appended, so
 * two different ids never share a file, even on case-insensitive file systems (macOS, Windows). The result never
 * contains a path separator and is never `.` or `..`: nothing can escape the folder it is joined to.
 */
export function safeFileName(original: string): string {
  let name = original.toLowerCase().replace(/[^a-z0-9._-]/g, '_');
  if (name.startsWith('.') || name.startsWith('-')) name = '_' + name.slice(1);
  if (name === original && name.length > 0 && name.length <= 100) return name;
  const hash = createHash('sha256').update(original, 'utf8').digest('hex').slice(0, 12);
  return `${name.slice(0, 100) || '_'}-${hash}`;
}
