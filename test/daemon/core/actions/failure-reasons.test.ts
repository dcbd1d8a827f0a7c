import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { sendCallback } from '../../../../daemon/core/actions/callbacks.js';
import { ROOT, tempFolderSync } from '../../../helpers/daemon.js';
import { runProgram } from '../../../helpers/process.js';

// What a program's failure becomes on a banner and in History's actionNote: a few plain words that follow "Could
// not open the link:" or "<button> did not work:", never the program's own message.

const bin = tempFolderSync('notifier-reasons-bin-');
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** Why the built opener could not open `target`, run in a process of its own with this PATH. */
async function openerFailure(target: object, PATH: string): Promise<string> {
  const opener = path.join(ROOT, 'dist', 'daemon', 'present', 'opener.js');
  const script = `import(${JSON.stringify(opener)}).then(({ openOnDesktop }) => openOnDesktop(${JSON.stringify(target)})).then(() => console.log('opened'), (error) => console.log(error.message))`;
  return (await runProgram(process.execPath, ['-e', script], { env: { PATH } })).stdout.trim();
}

/** An xdg-open that prints its own message and exits with `status` (xdg-open's manual: 3 no program set up, 4 it failed). */
const xdgOpen = (status: number): void =>
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "xdg-open: no method available for opening '$1'" >&2\nexit ${status}\n`, {
    mode: 0o755,
  });

describe('failure reasons in plain words', () => {
  test.each([
    [3, 'no application is set up to open it'],
    [4, 'the application set up to open it failed'],
    [1, 'xdg-open could not open it'],
  ])("xdg-open's exit %i: %s", async (status, reason) => {
    xdgOpen(status);
    expect(await openerFailure({ url: 'https://docs.example/' }, `${bin}${path.delimiter}/usr/bin${path.delimiter}/bin`)).toBe(reason);
  });

  test('an opener that is not installed, for a link and for an app', async () => {
    const nothing = path.join(bin, 'nothing');
    expect(await openerFailure({ url: 'https://docs.example/' }, nothing)).toBe('xdg-open is not installed');
    expect(await openerFailure({ app: { bundleId: 'org.example.App' } }, nothing)).toBe('gtk-launch is not installed');
  });

  test('a callback host that does not exist: its name was not found', async () => {
    const outcome = await sendCallback('http://nothing.invalid/hook', { notificationId: 'n', app: 'a', action: 'Go' });
    expect(outcome).toEqual({ ok: false, reason: 'the host nothing.invalid was not found' });
  }, 15_000);
});
