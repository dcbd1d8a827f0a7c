// Notifier's two native parts, npm builds them when it installs Notifier: node-canvas (the daemon draws previews
// and cards with it) and better-sqlite3 (the relay's embedded database). They are optional dependencies, so a
// build that fails — a system library missing, no compiler — leaves the install working and quiet rather than
// ending it in a node-gyp stack; the first start that needs one then says what is wrong here, in the words of
// scripts/setup.mjs (docs/install.md, "When a native part is missing"). This file imports Node's own modules only:
// the daemon's CLI and the relay both use it.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The name Notifier has on the npm registry (a test keeps it equal to package.json's). */
export const PACKAGE_NAME = 'notifier-desktop';

/** The native packages, and what each is for in the person's words. */
const NATIVE_PARTS = {
  canvas: 'node-canvas, which draws previews and cards,',
  'better-sqlite3': "better-sqlite3, the relay's embedded database,",
} as const;
type NativePart = keyof typeof NATIVE_PARTS;

/** scripts/setup.mjs, from this file built (dist/common/) in the package or the clone. */
const SETUP_SCRIPT = fileURLToPath(new URL('../../scripts/setup.mjs', import.meta.url));

/** setup.mjs's exit code when it named missing packages. */
const SOME_MISSING = 3;

/**
 * Which native part an error of loading code is about, or undefined: not installed (`Cannot find package 'canvas'`,
 * `Cannot find module 'better-sqlite3'`), or installed but not loadable here (a shared library missing, built for
 * another Node: the error names the part's folder).
 */
export function nativePartOf(error: unknown): NativePart | undefined {
  const { code, message, stack } = (error ?? {}) as { code?: unknown; message?: unknown; stack?: unknown };
  if (typeof message !== 'string') return undefined;
  // A shared library the part needs names only itself (`libcairo.so.2: cannot open shared object file`): the stack
  // has the part's folder.
  const where = `${message}\n${typeof stack === 'string' ? stack : ''}`;
  for (const part of Object.keys(NATIVE_PARTS) as NativePart[]) {
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && new RegExp(`'${part}'`).test(message);
    const unloadable = code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|bindings file/.test(message);
    if (missing || (unloadable && where.includes(`node_modules/${part}/`))) return part;
  }
  return undefined;
}

/**
 * Writes why `program` cannot start and what to do on standard error: the part and the loader's words, then
 * setup.mjs's lines for each missing system package and the line that installs them, then how to build the part
 * again. Nothing is installed.
 */
export function explainNativePart(program: string, part: NativePart, error: Error): void {
  const say = (line: string): boolean => process.stderr.write(`${program}: ${line}\n`);
  say(`${NATIVE_PARTS[part]} could not be loaded: ${error.message.split('\n')[0]}`);
  const explained = spawnSync(process.execPath, [SETUP_SCRIPT, '--explain-missing', '--as', program], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const first = explained.status === SOME_MISSING ? 'then install' : 'install';
  say(`${first} Notifier again, so that npm builds ${part}: npm install -g ${PACKAGE_NAME} (from a clone: npm rebuild ${part})`);
}
