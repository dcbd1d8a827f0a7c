import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { channelPath } from '../daemon/control/channel.js';
import { channel } from './channel.js';

// Signing in to the person's app from a benchmark or the screenshots script (the tests have test/helpers/app.ts):
// no test framework in here.

/**
 * Makes `folder` hold a `chromium` that opens nothing, so a daemon with it first on PATH (and a DISPLAY) mints
 * sign-in links on the private channel's `open` without a browser window appearing: the caller reads the link
 * from the forwarding file instead, as the opened window would.
 */
export async function writeSilentBrowser(folder: string): Promise<void> {
  await writeFile(path.join(folder, 'chromium'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
}

/**
 * A notification whose details page has the most on it: a question waiting for a reply, and a command button that,
 * pressed, asks the person first. The screenshots show it; the accessibility test checks it. The sender adds its app.
 */
export const DEPLOY_QUESTION = {
  title: 'Deploy to production?',
  subtitle: 'from your terminal',
  body: 'The agent wants to run `make deploy` on **api-eu**.\nReply *go* or *wait*, or press Deploy.',
  buttons: [
    { label: 'Answer', reply: { placeholder: 'go or wait' } },
    { label: 'Deploy', command: 'make deploy' },
  ],
};

const FORWARDING_FILE = /^signin-[A-Za-z0-9_-]+\.html$/;

/**
 * A fresh sign-in link to `page`, as the tray gets one: the private channel's `open`, then the link read from the
 * 0600 forwarding file the daemon wrote for the browser (its meta refresh).
 */
export async function signInLink(supportDir: string, page = 'history'): Promise<string> {
  const before = new Set(await readdir(supportDir));
  const answer = await channel(channelPath(supportDir), { op: 'open', page });
  if (answer.ok !== true) throw new Error(`the app did not open: ${JSON.stringify(answer)}`);
  const file = (await readdir(supportDir)).find((name) => FORWARDING_FILE.test(name) && !before.has(name));
  if (!file) throw new Error('no forwarding file was written');
  const html = await readFile(path.join(supportDir, file), 'utf8');
  const link = /content="0;url=([^"]+)"/.exec(html)?.[1];
  if (!link) throw new Error(`no link in the forwarding file: ${html}`);
  return link.replace(/&amp;/g, '&');
}

/**
 * The session's CSRF value in the sign-in's answer: the fragment of the address its page forwards to (`#csrf=…`),
 * which the app's page keeps (docs/app.md#signing-in).
 */
export function sessionCsrf(signInPage: string): string {
  const csrf = /#csrf=([A-Za-z0-9_-]+)"/.exec(signInPage)?.[1];
  if (!csrf) throw new Error(`no CSRF value in the sign-in's answer: ${signInPage}`);
  return csrf;
}
