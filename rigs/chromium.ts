// Headless Chromium for the tests of web pages and the benchmarks and screenshots of the person's app (Debian's
// `chromium`, driven by playwright-core). Playwright starts it with a fresh profile folder of its own, removed
// when it closes. Shared by the tests and the benchmarks: no test framework in here.

import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

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

/** A headless Chromium; the caller closes it (a test file in its afterAll). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
