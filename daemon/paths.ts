// Paths a caller gives: `~` is the home folder, a `file://` URL is the file it names. One place for both, so every
// route reads them the same way.

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errors } from '../protocol/errors.js';

/** `~` and `~/...` in the home folder; anything else as given. */
export function expandHome(given: string): string {
  return given === '~' || given.startsWith('~/') ? path.join(os.homedir(), given.slice(1)) : given;
}

/**
 * A local path from a path, `~/...` or `file://` URL; null for a remote URL (`https://...`). A `file://` URL with a
 * host or an encoded `/` names no file here: 400.
 */
export function localPath(given: string): string | null {
  if (given.startsWith('file://')) {
    try {
      return fileURLToPath(given);
    } catch (error) {
      throw errors.notLocalFile(given, (error as Error).message);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given)) return null;
  return expandHome(given);
}
