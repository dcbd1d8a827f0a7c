// common/native-parts.ts tells a native part that did not load from any other failure of loading code: only then
// does a start explain itself with setup.mjs's words (docs/install.md, "When a native part is missing").

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@jest/globals';
import { nativePartOf, PACKAGE_NAME } from '../../common/native-parts.js';
import { ROOT } from '../helpers/daemon.js';

const failure = (code: string, message: string, stack = `Error: ${message}\n    at somewhere (node:internal/x:1:1)`) =>
  Object.assign(new Error(message), { code, stack });

test('a part not installed, or installed but not loadable here, is named; anything else is not ours to explain', () => {
  expect(
    nativePartOf(failure('ERR_MODULE_NOT_FOUND', "Cannot find package 'canvas' imported from /x/dist/templates-renderer/draw.js")),
  ).toBe('canvas');
  expect(
    nativePartOf(failure('MODULE_NOT_FOUND', "Cannot find module 'better-sqlite3'\nRequire stack:\n- /x/dist/relay/store/sqlite.js")),
  ).toBe('better-sqlite3');
  // A shared library missing names only itself; the part's folder is in the stack.
  const cairo = failure(
    'ERR_DLOPEN_FAILED',
    'libcairo.so.2: cannot open shared object file: No such file or directory',
    'Error: libcairo.so.2: cannot open shared object file\n    at Object.<anonymous> (/p/node_modules/canvas/lib/bindings.js:3:18)',
  );
  expect(nativePartOf(cairo)).toBe('canvas');
  const otherNode = failure(
    'ERR_DLOPEN_FAILED',
    "The module '/p/node_modules/better-sqlite3/build/Release/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115.",
  );
  expect(nativePartOf(otherNode)).toBe('better-sqlite3');
  expect(
    nativePartOf(failure('', 'Could not locate the bindings file. Tried:\n → /p/node_modules/better-sqlite3/build/better_sqlite3.node')),
  ).toBe('better-sqlite3');

  expect(
    nativePartOf(failure('ERR_MODULE_NOT_FOUND', "Cannot find package 'express' imported from /x/dist/daemon/http/app.js")),
  ).toBeUndefined();
  expect(nativePartOf(failure('ERR_DLOPEN_FAILED', '/p/node_modules/usocket/build/Release/uwrap.node: file too short'))).toBeUndefined();
  expect(nativePartOf(new TypeError("Cannot read properties of undefined (reading 'canvas')"))).toBeUndefined();
  expect(nativePartOf(undefined)).toBeUndefined();
  expect(nativePartOf('canvas')).toBeUndefined();
});

test("PACKAGE_NAME is package.json's name, the one the advice to install again names", () => {
  expect(PACKAGE_NAME).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).name);
});
