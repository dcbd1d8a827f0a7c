// Screenshots of the person's app for the README and docs/app.md, made from the real thing: a daemon on a temporary
// support folder, filled with the notifications of a plausible day (apps with icons, a question waiting, a reply,
// a failed callback, a snoozed and a held one), signed in through the private channel in headless Chromium. Look at
// every picture after making them.
//   npm run screenshots            (writes docs/screenshots/<page>-<light|dark>.png)
// Not a benchmark: it lives in bench/ because it is built and run like one (bench/lib.ts starts and cleans up).

import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas, loadImage } from 'canvas';
import type { Page } from 'playwright-core';
import { channelPath } from '../daemon/control/channel.js';
import { APP_CSRF_HEADER, APP_CSRF_STORAGE } from '../protocol/app-api.js';
import { channel } from '../rigs/channel.js';
import { DEPLOY_QUESTION, signInLink } from '../rigs/person-app.js';
import { defineBenchmark } from './lib.js';
import type { RunningDaemon } from './kit/daemon.js';
import { request } from './kit/http.js';
import { ROOT, sleep } from './kit/processes.js';

const OUT = path.join(ROOT, 'docs', 'screenshots');
const WINDOW = { width: 1200, height: 760 };
const MINUTE = 60_000;

/** The apps of the day, each with an icon drawn from a lucide symbol on its colour. */
const APPS = [
  { app: 'calendar', appName: 'Calendar', symbol: 'calendar', colour: '#2f6fde' },
  { app: 'backup', appName: 'Backup', symbol: 'hard-drive', colour: '#13806f' },
  { app: 'ci', appName: 'CI pipeline', symbol: 'git-branch', colour: '#7a4fc2' },
  { app: 'claude', appName: 'Claude Code', symbol: 'bot', colour: '#c2562d', allowCommands: true },
  { app: 'home', appName: 'Home', symbol: 'house', colour: '#2e7a3a' },
  { app: 'news', appName: 'Newsletter', symbol: 'newspaper', colour: '#52627a' },
];

async function iconOf(symbol: string, colour: string): Promise<string> {
  const svg = (await readFile(path.join(ROOT, 'node_modules', 'lucide-static', 'icons', `${symbol}.svg`), 'utf8'))
    .replace(/<!--.*?-->/s, '')
    .replace('stroke="currentColor"', 'stroke="#ffffff"')
    .replace('width="24"', 'width="64"')
    .replace('height="24"', 'height="64"');
  const canvas = createCanvas(128, 128);
  const context = canvas.getContext('2d');
  context.fillStyle = colour;
  context.beginPath();
  context.roundRect(0, 0, 128, 128, 28);
  context.fill();
  context.drawImage(await loadImage(Buffer.from(svg)), 32, 32, 64, 64);
  return `data:image/png;base64,${canvas.toBuffer('image/png').toString('base64')}`;
}

async function api(daemon: RunningDaemon, method: string, route: string, body?: unknown): Promise<any> {
  const answer = await daemon.call(method, route, body);
  if (answer.status >= 400) throw new Error(`${method} ${route}: ${answer.status} ${answer.body}`);
  return JSON.parse(answer.body);
}

/** One record of History as the daemon keeps it, delivered `minutesAgo` before now. */
function earlier(app: string, minutesAgo: number, notification: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const id = randomUUID().toUpperCase();
  return {
    id,
    app,
    notification: { app, id, ...notification },
    deliveredAt: new Date(Date.now() - minutesAgo * MINUTE).toISOString(),
    ...extra,
  };
}

/**
 * The earlier part of the day, written into the support folder before the daemon starts (a notification sent now
 * is delivered now): records as History keeps them, with their times.
 */
async function writeEarlier(supportDir: string): Promise<void> {
  const byApp: Record<string, ReturnType<typeof earlier>[]> = {
    home: [earlier('home', 21 * 60 + 7, { title: 'Front door unlocked', body: 'Unlocked by Ana at 18:42.' })],
    backup: [earlier('backup', 2 * 60 + 14, { title: 'Backup finished', body: '18,204 files copied to **nas.local** in 4 min.' })],
    news: [
      earlier(
        'news',
        3 * 60 + 2,
        { title: 'This week in open source', body: 'Five releases worth a look, and one **you asked about**.' },
        { held: 'app-muted' },
      ),
    ],
    ci: [earlier('ci', 5 * 60 + 31, { title: 'Nightly tests passed', body: 'All 1,204 tests passed in 6 min.' })],
  };
  await mkdir(path.join(supportDir, 'history'), { recursive: true, mode: 0o700 });
  for (const [app, records] of Object.entries(byApp)) {
    await writeFile(path.join(supportDir, 'history', `${app}.json`), JSON.stringify({ app, records }), { mode: 0o600 });
  }
}

/** The apps, and the notifications of the last minutes; returns the ids the later steps act on. */
async function fill(daemon: RunningDaemon): Promise<Record<string, string>> {
  for (const { app, appName, symbol, colour, allowCommands } of APPS) {
    await api(daemon, 'POST', '/v1/register', {
      app,
      appName,
      icon: await iconOf(symbol, colour),
      ...(allowCommands ? { allowCommands } : {}),
    });
  }
  const send = async (body: Record<string, unknown>): Promise<string> => (await api(daemon, 'POST', '/v1/notify', body)).id;
  const ids: Record<string, string> = {};
  ids.build = await send({
    app: 'ci',
    title: 'Build #4821 failed',
    body: 'Step `npm test` failed: 3 tests.\nSee [the log](https://ci.example.com/4821).',
    buttons: [{ label: 'Retry', callback: { url: 'https://ci.example.invalid/retry' } }],
  });
  ids.lunch = await send({ app: 'calendar', title: 'Lunch with Sam', body: 'Noodle bar on 5th, 12:30.' });
  ids.refactor = await send({
    app: 'claude',
    title: 'Refactor finished: anything else?',
    body: 'Changed 14 files; **all tests pass**. Shall I open the pull request?',
    buttons: [{ label: 'Answer', reply: { placeholder: 'yes, or what to change' } }],
  });
  ids.review = await send({
    app: 'calendar',
    title: 'Design review in 10 minutes',
    body: 'Room 3 with Ana and Tom. [Agenda](https://docs.example.com/agenda)',
  });
  ids.deploy = await send({ app: 'claude', ...DEPLOY_QUESTION });
  await api(daemon, 'POST', '/v1/snooze', { app: 'calendar', id: ids.lunch, minutes: 90 });
  // Settings: quiet nights on weekdays.
  await api(daemon, 'PUT', '/v1/settings/quiet-hours', {
    windows: [
      { id: 'nights', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '22:30', end: '07:00', speech: true, sounds: true, banners: false },
    ],
  });
  // Senders: the backup tool's sending key, and its next run announced for later in ntfy's dialect (a delay).
  await api(daemon, 'POST', '/v1/keys', { app: 'backup', name: 'Backup on the NAS' });
  const later = await request(`${daemon.baseUrl}/backup`, {
    method: 'POST',
    headers: { ...daemon.auth, Title: 'Backup starts in 2 hours', 'X-Delay': '2h', 'Content-Type': 'text/plain' },
    body: 'Home folder and photos',
  });
  if (later.status !== 200) throw new Error(`the delayed publish answered ${later.status}: ${later.body}`);
  const history = (await api(daemon, 'GET', '/v1/history?limit=100')).items as Array<{ app: string; id: string }>;
  for (const app of ['backup', 'home', 'ci'])
    ids[`earlier-${app}`] = history.find((record) => record.app === app && record.id !== ids.build)!.id;
  return ids;
}

/** What the person did during the day, in the app itself (replying, pressing, allowing are theirs alone). */
async function actAsThePerson(page: Page, daemon: RunningDaemon, ids: Record<string, string>, supportDir: string): Promise<void> {
  const person = async (method: string, route: string, body?: unknown): Promise<void> => {
    const status = await page.evaluate(
      async ({ method, route, body, header, storage }) => {
        // The page's own CSRF value, kept where the app keeps it (app/src/models/api.ts).
        const csrf = (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem(storage);
        const reply = await fetch(route, {
          method,
          headers: { 'Content-Type': 'application/json', [header]: csrf ?? '' },
          body: JSON.stringify(body ?? {}),
        });
        return reply.status;
      },
      { method, route, body, header: APP_CSRF_HEADER, storage: APP_CSRF_STORAGE },
    );
    if (status >= 400) throw new Error(`${method} ${route}: ${status}`);
  };
  const item = (app: string, id: string, action: string): string => `/app/api/history/${app}/${encodeURIComponent(id)}/${action}`;
  await person('POST', item('claude', ids.refactor!, 'reply'), { text: 'Yes, open it. Thanks!' });
  for (const app of ['backup', 'home', 'ci']) await person('POST', item(app, ids[`earlier-${app}`]!, 'read'), { read: true });
  // Retry posts to another computer: the person allows its host, and the callback fails (it does not exist).
  await person('POST', item('ci', ids.build!, 'press'), { actionId: 'retry' });
  // Claude Code's standing request to run commands (allowCommands on register) waits too: answer the host's question.
  const asked = async (kind: string): Promise<any[]> =>
    (await channel(channelPath(supportDir), { op: 'questions' })).questions.filter((question: { kind: string }) => question.kind === kind);
  for (let tries = 0; (await asked('callbackHost')).length === 0 && tries < 100; tries++) await sleep(50);
  const [hostQuestion] = await asked('callbackHost');
  await channel(channelPath(supportDir), { op: 'answer', id: hostQuestion.id, allow: true });
  for (let tries = 0; tries < 200; tries++) {
    const record = (await api(daemon, 'GET', '/v1/history?app=ci')).items.find((item: { id: string }) => item.id === ids.build);
    if (record?.actionNote) break;
    await sleep(50);
  }
  // Deploy asks to run a command: Claude Code's request becomes its question, which waits in Approvals.
  await person('POST', item('claude', ids.deploy!, 'press'), { actionId: 'deploy' });
  for (let tries = 0; (await asked('commands')).length === 0 && tries < 100; tries++) await sleep(50);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined); // the event stream never idles: best effort
  await sleep(400); // pictures decoded, the last frame drawn
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`wrote docs/screenshots/${name}.png`);
}

await defineBenchmark({
  title: "Notifier: screenshots of the person's app (docs/screenshots/)",
  pin: false,
  needs: { chromium: true },
  async measure({ tempFolder, startDaemon, chromium: browser }) {
    const supportDir = await tempFolder('notifier-screenshots-');
    await writeEarlier(supportDir);
    const daemon = await startDaemon({ supportDir, personApp: true });
    const ids = await fill(daemon);
    await mkdir(OUT, { recursive: true });
    let first = true;
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: WINDOW, colorScheme: theme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(await signInLink(supportDir));
      await page.waitForURL((url) => url.pathname === '/app/history');
      if (first) await actAsThePerson(page, daemon, ids, supportDir);
      first = false;
      const origin = new URL(page.url()).origin;
      await page.goto(`${origin}/app/history`);
      await page.getByRole('link', { name: 'Deploy to production?', exact: true }).waitFor();
      await shoot(page, `history-${theme}`);
      await page.goto(`${origin}/app/history/claude/${encodeURIComponent(ids.deploy!)}`);
      await page.getByRole('textbox', { name: 'Reply', exact: true }).fill('go — after the standup');
      await shoot(page, `details-${theme}`);
      await page.goto(`${origin}/app/approvals`);
      await page.getByRole('heading', { name: 'Waiting for you' }).waitFor();
      await shoot(page, `approvals-${theme}`);
      await page.goto(`${origin}/app/compose`);
      await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Water the plants');
      await page
        .getByRole('textbox', { name: 'Body', exact: true })
        .fill('The **ficus** and the *basil* — [care guide](https://example.com/care).');
      await page.getByRole('button', { name: 'Add a button' }).click();
      await page.getByRole('textbox', { name: 'Button 1 label', exact: true }).fill('Done');
      await page.getByRole('checkbox', { name: /Ask for a reply/ }).check();
      await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
      await shoot(page, `compose-${theme}`);
      await page.goto(`${origin}/app/settings`);
      await page.getByRole('heading', { name: 'Quiet hours' }).waitFor();
      await page.getByRole('heading', { name: 'General settings' }).waitFor();
      await shoot(page, `settings-${theme}`);
      await page.goto(`${origin}/app/designer`);
      await page.getByRole('region', { name: 'Templates' }).getByRole('button', { name: /^hero/ }).click();
      await page.getByRole('img', { name: 'Preview', exact: true }).waitFor();
      await page.locator('.status-region .status').waitFor({ state: 'detached' }); // "Opened a copy…" goes after 5 s
      await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
      await shoot(page, `designer-${theme}`);
      await page.goto(`${origin}/app/relay`);
      await page.getByRole('textbox', { name: 'Relay address' }).fill('https://relay.example.com');
      await shoot(page, `relay-${theme}`);
      await context.close();
    }
  },
});
