// The rule for the name of a template a person, an agent or a bundle creates or renames (docs/api/templates.md#t2).
// PUT /v1/templates wraps a problem as `invalid template name: ...`, duplicate and rename as `invalid newName: ...`.
// Names already stored that break the rule still load, delete and rename: only new names are checked.

import { Buffer } from 'node:buffer';
import { LAYOUTS } from '../protocol/types.js';

export const BUILTIN_PREFIX = 'builtin.';
export const SCRATCH_PREFIX = '_';
/** The name is also a file name: at most 128 UTF-8 bytes. */
export const MAX_TEMPLATE_NAME_BYTES = 128;

export interface NameOptions {
  /** PUT /v1/templates alone accepts scratch names (`_name`): usable by name, never listed. */
  allowScratch?: boolean;
}

/** Why `name` cannot be used for a new or renamed template; null when it can. White space is not trimmed. */
export function templateNameProblem(name: string, options: NameOptions = {}): string | null {
  if (name.trim() === '') return 'the name is empty';
  if (name.includes('/') || name.includes(':')) return 'the name cannot contain / or :';
  if (name.startsWith('.') || (name.startsWith(SCRATCH_PREFIX) && !options.allowScratch)) {
    return 'the name cannot start with . or _ (those are reserved)';
  }
  if (name.startsWith(BUILTIN_PREFIX)) return `names starting with ${BUILTIN_PREFIX} are reserved for the built-in layouts`;
  if (Buffer.byteLength(name, 'utf8') > MAX_TEMPLATE_NAME_BYTES) return `the name is longer than ${MAX_TEMPLATE_NAME_BYTES} bytes`;
  return null;
}

/** One of the four built-in layouts: `builtin.imageLeft`, `builtin.imageRight`, `builtin.hero`, `builtin.compact`. */
export function isBuiltinName(name: string): boolean {
  return name.startsWith(BUILTIN_PREFIX) && (LAYOUTS as readonly string[]).includes(name.slice(BUILTIN_PREFIX.length));
}

/** A scratch template (`_name`): usable by name, never listed (docs/api/templates.md#t4). */
export function isScratchName(name: string): boolean {
  return name.startsWith(SCRATCH_PREFIX);
}
