import { readdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { channelPath } from '../../daemon/control/channel.js';

// Shared by the tests, the benchmarks and the screenshots of the person's app: no test framework in here.

/** Debian's Chromium, driven by playwright-core, with the flags the relay's page tests use. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium with a fresh profile of its own (Playwright removes it when the browser closes). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Makes `folder` hold a `chromium` that opens nothing, so a daemon with it first on PATH (and a DISPLAY) mints
 * sign-in links on the private channel's `open` without a browser window appearing: the caller reads the link
 * from the forwarding file instead, as the opened window would.
 */
export async function writeSilentBrowser(folder: string): Promise<void> {
  await writeFile(path.join(folder, 'chromium'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
}

/** One request on the private channel (a JSON line), one answer. */
function channel(supportDir: string, message: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(channelPath(supportDir), () => socket.write(`${JSON.stringify(message)}\n`));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      const end = received.indexOf('\n');
      if (end >= 0) {
        socket.end();
        resolve(JSON.parse(received.slice(0, end)) as Record<string, unknown>);
      }
    });
    socket.on('error', reject);
  });
}

const FORWARDING_FILE = /^signin-[A-Za-z0-9_-]+\.html$/;

/**
 * A fresh sign-in link to `page`, as the tray gets one: the private channel's `open`, then the link read from the
 * 0600 forwarding file the daemon wrote for the browser (its meta refresh).
 */
export async function signInLink(supportDir: string, page = 'history'): Promise<string> {
  const before = new Set(await readdir(supportDir));
  const answer = await channel(supportDir, { op: 'open', page });
  if (answer.ok !== true) throw new Error(`the app did not open: ${JSON.stringify(answer)}`);
  const file = (await readdir(supportDir)).find((name) => FORWARDING_FILE.test(name) && !before.has(name));
  if (!file) throw new Error('no forwarding file was written');
  const html = await readFile(path.join(supportDir, file), 'utf8');
  const link = /content="0;url=([^"]+)"/.exec(html)?.[1];
  if (!link) throw new Error(`no link in the forwarding file: ${html}`);
  return link.replace(/&amp;/g, '&');
}
