// Headless Chromium for the tests of web pages: the relay's consent pages and the person's app. The rig is shared
// with the benchmarks and the screenshots of the app (bench/rigs/chromium.ts).

export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from '../../bench/rigs/chromium.js';
