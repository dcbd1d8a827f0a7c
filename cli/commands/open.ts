// `notifier open [page]`: the person's app in a window, signed in (docs/app.md#how-it-opens). It goes through the
// private channel like the tray — never the API token, and the sign-in code never reaches this process: the
// daemon opens the window itself.

import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { type Command, Argument } from 'commander';
import { APP_PAGES, DEFAULT_APP_PAGE } from '../../protocol/app-api.js';
import { channelPath } from '../../daemon/control/channel.js';
import { defaultSupportDir } from '../../daemon/support-dir.js';
import { portFromFile } from '../local-service.js';
import { act } from './common.js';

/** How long the daemon may take to open the window. */
const OPEN_TIMEOUT_MS = 30_000;

/** Sends one request on the private channel and reads its one-line answer. */
function askChannel(where: string, request: Record<string, unknown>): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(where, () => socket.write(`${JSON.stringify(request)}\n`));
    let buffered = '';
    socket.setTimeout(OPEN_TIMEOUT_MS, () => socket.destroy(new Error('the service did not answer in time')));
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      socket.end();
      try {
        resolve(JSON.parse(buffered.slice(0, end)));
      } catch {
        reject(new Error('the service answered something that is not JSON'));
      }
    });
    socket.once('error', reject);
  });
}

/**
 * The window is opened through the support folder's private channel, not a port. `--port` is taken as on every
 * command: it then names the service meant, and a folder whose service listens elsewhere is a mistake said plainly
 * (else the window of another instance would open).
 */
async function portMismatch(supportDir: string, port: number | undefined): Promise<string | undefined> {
  if (port === undefined) return undefined;
  const listening = portFromFile(await readFile(path.join(supportDir, 'port'), 'utf8').catch(() => undefined));
  if (listening === port) return undefined;
  return listening === undefined
    ? `Notifier is not running on port ${port} with the support folder ${supportDir} (it has no port file). Give the --support-dir of the instance on port ${port}.`
    : `the Notifier of ${supportDir} listens on port ${listening}, not ${port}. Give the --support-dir of the instance on port ${port}.`;
}

export function registerOpenCommand(program: Command): void {
  act(
    program
      .command('open')
      .description("open Notifier's window (History, or the page named), signed in through the private channel")
      .addArgument(new Argument('[page]', 'the page to open').choices(APP_PAGES).default(DEFAULT_APP_PAGE)),
    async (context) => {
      const page = context.args[0] as string;
      const supportDir = path.resolve(context.target.supportDir ?? defaultSupportDir());
      const where = channelPath(supportDir);
      const mismatch = await portMismatch(supportDir, context.target.port);
      if (mismatch) {
        process.stderr.write(`notifier open: ${mismatch}\n`);
        process.exitCode = 2;
        return;
      }
      let answer: { ok: boolean; error?: string };
      try {
        answer = await askChannel(where, { op: 'open', page });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const notRunning = code === 'ENOENT' || code === 'ECONNREFUSED';
        process.stderr.write(
          notRunning
            ? `Notifier is not running (nothing listens on ${where}). Start it with 'npm start' or 'notifier daemon'.\n`
            : `notifier open: ${(error as Error).message}\n`,
        );
        process.exitCode = 2;
        return;
      }
      if (answer.ok) return void process.stdout.write(`Notifier opens ${page} in a window.\n`);
      process.stderr.write(`notifier open: ${answer.error ?? 'the window could not be opened'}\n`);
      process.exitCode = 1;
    },
  );
}
