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
  // Chromium draws its address bar's drop-down as a web page of its own (the omnibox popup WebUI) and, in headless
  // mode, builds it again for every new browser context, in a renderer of its own: a few hundred requests and
  // 100-250 ms of CPU on a 2-core machine, competing with the page under test. Every sign-in of a test or
  // benchmark is a new context (a browser that never signed in), whereas the person's window is one `--app=`
  // window with no address bar; docs/performance.md ("The person's app") has the figures with and without it.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI',
];

/** A headless Chromium; the caller closes it (a test file in its afterAll). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
