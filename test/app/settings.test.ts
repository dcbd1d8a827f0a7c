// The Settings page of the person's app (docs/app.md#settings), in headless Chromium against a real daemon: quiet
// hours added there are the daemon's and hold a notification back as documented; their times are in the person's
// own format everywhere; a muted app's next banner is held; each app is one line, its other settings behind
// "Customize…"; how long its banners stay is one control; an invalid value is refused next to its field and
// changes nothing; a key goes back to its default; removing an app asks first; a sending key made on an app's card
// is shown once and sends as the app; "Test voice" speaks (the real espeak-ng) and leaves nothing in History; quiet
// hours are added with the keyboard alone; axe finds nothing serious, light or dark, wide or narrow.

import { beforeAll, describe, expect, test } from '@jest/globals';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expectAxeClean, focusAfterQuickMove, focusBecomes, openAppTab, signIn, startBrowser, startWebApp } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { waitFor } from '../helpers/daemon.js';

let daemon: AppDaemon;
let browser: Browser;
let page: Page;
let problems: string[];

/** Waits for `check` to give a value (the page and the daemon catch up); `what` names it when it never does. */
const until = <T>(check: () => Promise<T | undefined>, what = 'the page and the daemon to agree'): Promise<T> => waitFor(check, what);

const pad = (number: number): string => String(number).padStart(2, '0');
/** The local clock `minutes` from now, as HH:MM (the daemon runs on this computer's clock and zone). */
function clockIn(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  return `${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

async function quietHours(): Promise<any> {
  return (await daemon.api('GET', '/v1/settings/quiet-hours')).json;
}

async function settings(): Promise<Record<string, unknown>> {
  return (await daemon.api('GET', '/v1/settings')).json.settings;
}

async function notify(app: string, title: string): Promise<any> {
  const id = (await daemon.api('POST', '/v1/notify', { body: { app, title } })).json.id as string;
  return until(async () => (await daemon.api('GET', `/v1/history?app=${app}`)).json.items.find((record: any) => record.id === id));
}

/** Back to the Settings page, drawn afresh (its sections read the daemon when it opens). */
async function openSettings(): Promise<void> {
  await page.goto(new URL('/app/settings', page.url()).href);
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  await page.getByRole('region', { name: 'Apps' }).getByRole('region').first().waitFor();
}

/** Resolves once the element with this id has the focus. */
async function focusIsOn(id: string): Promise<void> {
  await until(async () => ((await page.evaluate(() => (globalThis as any).document.activeElement?.id)) === id ? true : undefined));
}

/** A time of day ("22:30") as the page's browser writes it in its language ("10:30 PM"). */
const clock = (hhmm: string, on: Page = page): Promise<string> =>
  on.evaluate((time) => {
    const [hours, minutes] = time.split(':').map(Number);
    return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(2000, 0, 1, hours, minutes));
  }, hhmm);

const quietSection = () => page.getByRole('region', { name: 'Quiet hours' });
const appCard = (name: string) => page.getByRole('region', { name, exact: true });

/** Opens the rest of an app's settings ("Customize…"), as a person does; resolves once they show. */
async function customize(name: string): Promise<void> {
  const button = appCard(name).getByRole('button', { name: `Customize ${name}…` });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await appCard(name).getByRole('textbox', { name: 'Name', exact: true }).waitFor();
}

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startWebApp(), startBrowser()]);
  await daemon.api('POST', '/v1/register', { body: { app: 'builds', appName: 'Builds' } });
  await daemon.api('POST', '/v1/notify', { body: { app: 'builds', title: 'Build 41 passed' } });
  await daemon.api('POST', '/v1/notify', { body: { app: 'old-tool', title: 'Still here' } });
  ({ page, problems } = await openAppTab(browser, daemon, 'settings'));
  await openSettings();
}, 30_000);

describe('Settings in the app', () => {
  test('quiet hours added on the page are kept, and a notification inside them is held back (banners silenced)', async () => {
    const [start, end] = [clockIn(-1), clockIn(120)];
    const [shownStart, shownEnd] = [await clock(start), await clock(end)];
    await quietSection().getByRole('button', { name: 'Add quiet hours' }).click();
    await page.getByRole('textbox', { name: 'Quiet from', exact: true }).fill(start);
    await page.getByRole('textbox', { name: 'Quiet until', exact: true }).fill(end);
    await page.getByRole('checkbox', { name: 'Banners (kept in History, not shown)' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await quietSection()
      .getByRole('listitem')
      .filter({ hasText: `${shownStart} – ${shownEnd}` })
      .waitFor();

    const kept = await quietHours();
    expect(kept.windows).toEqual([
      { id: expect.any(String), days: [], start, end, speech: true, sounds: true, banners: true, speakSummary: false },
    ]);
    expect(kept.status).toMatchObject({ active: true, banners: true, sounds: true, speech: true });
    await quietSection()
      .getByText(/^Quiet until .+ — banners, sounds and speech$/)
      .waitFor();

    // docs/api/settings.md#s14: stored, not shown, held for quiet hours.
    const record = await notify('builds', 'Build 42 passed');
    expect(record.held).toBe('quiet-hours');
    expect(record.dismissedAt).toBeUndefined();

    await quietSection()
      .getByRole('button', { name: `Remove quiet hours ${shownStart} to ${shownEnd}` })
      .click();
    await quietSection().getByText('No quiet hours are set.').waitFor();
    expect((await quietHours()).windows).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a quiet hour now, as the tray starts one, and off again', async () => {
    await quietSection().getByRole('button', { name: 'Quiet for 1 hour' }).click();
    await quietSection()
      .getByText(/^Quiet until .+ — sounds and speech$/)
      .waitFor();
    const started = await quietHours();
    expect(started.adHoc).toMatchObject({ speech: true, sounds: true, banners: false });
    const minutes = (Date.parse(started.adHoc.until) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(55);
    expect(minutes).toBeLessThanOrEqual(60);
    await quietSection().getByRole('button', { name: 'Turn quiet off' }).click();
    await quietSection().getByText('Not quiet now: banners, sounds and speech are on.').waitFor();
    await focusBecomes(page, 'Quiet for 1 hour'); // its button went with the quiet: the focus is not lost
    const ended = await quietHours();
    expect(ended.adHoc).toBeUndefined();
    expect(ended.status.active).toBe(false);
    expect(problems).toEqual([]);
  });

  test('a message of the status line never covers the page, and nothing moves when it shows, wide or narrow', async () => {
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 800 });
      const button = quietSection().getByRole('button', { name: 'Quiet for 1 hour' });
      // The button at the very foot of the page, where a message laid over the page would sit.
      await button.evaluate((element) => {
        const main = element.closest('main')!;
        main.scrollTop += element.getBoundingClientRect().bottom - main.getBoundingClientRect().bottom;
      });
      const before = (await button.boundingBox())!;
      await button.click();
      const message = page.getByRole('status').getByText('Quiet for an hour: no sounds and no speech.');
      await message.waitFor();
      const shown = (await message.boundingBox())!;
      const after = (await button.boundingBox())!;
      expect(after).toEqual(before); // nothing moved
      const main = (await page.locator('main').boundingBox())!;
      expect(shown.y).toBeGreaterThanOrEqual(main.y + main.height); // under the page, not over it
      expect(after.y + after.height).toBeLessThanOrEqual(shown.y);
      // The page scrolls, never the window: the strip stays at its foot.
      const documentHeight = await page.evaluate(() => (globalThis as any).document.documentElement.scrollHeight);
      expect({ width, documentHeight }).toEqual({ width, documentHeight: 800 });
      await quietSection().getByRole('button', { name: 'Turn quiet off' }).click();
      await quietSection()
        .getByText(/^Not quiet now/)
        .waitFor();
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(problems).toEqual([]);
  });

  test('quiet hours are added with the keyboard alone', async () => {
    await quietSection().getByRole('button', { name: 'Add quiet hours' }).focus();
    await page.keyboard.press('Enter');
    await focusIsOn('quiet-start'); // the form opens with the focus on Start
    await page.keyboard.type('22:30');
    await page.keyboard.press('Tab');
    await page.keyboard.type('06:15');
    await page.keyboard.press('Tab'); // the first day: Monday
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // and Wednesday
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter'); // in End: the form is sent
    await focusBecomes(page, 'Add quiet hours');
    expect((await quietHours()).windows).toEqual([
      {
        id: expect.any(String),
        days: ['mon', 'wed'],
        start: '22:30',
        end: '06:15',
        speech: true,
        sounds: true,
        banners: false,
        speakSummary: false,
      },
    ]);
    await quietSection()
      .getByText(`${await clock('22:30')} – ${await clock('06:15')}`)
      .waitFor();

    // Escape closes a form without saving anything.
    await page.keyboard.press('Enter');
    await focusIsOn('quiet-start');
    await page.keyboard.type('01:00');
    await page.keyboard.press('Escape');
    await focusBecomes(page, 'Add quiet hours');
    expect((await quietHours()).windows).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  test('a window edited keeps its id; the form opens with its values', async () => {
    const [before] = (await quietHours()).windows;
    await quietSection()
      .getByRole('button', { name: `Edit quiet hours ${await clock('22:30')} to ${await clock('06:15')}` })
      .click();
    await page.getByRole('heading', { name: 'Edit quiet hours' }).waitFor();
    // In the person's format, as the list shows it; typed in another, it is still the API's HH:MM.
    expect(await page.getByRole('textbox', { name: 'Quiet from', exact: true }).inputValue()).toBe(await clock('22:30'));
    expect(await page.getByRole('checkbox', { name: 'Monday' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Tuesday' }).isChecked()).toBe(false);
    await page.getByRole('textbox', { name: 'Quiet until', exact: true }).fill('7:45 am');
    await page.getByRole('checkbox', { name: 'Speak a summary of what came in when it ends' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await focusBecomes(page, 'Edit');
    expect((await quietHours()).windows).toEqual([{ ...before, end: '07:45', speakSummary: true }]);
    await quietSection()
      .getByText(/a spoken summary at the end/)
      .waitFor();
    expect(problems).toEqual([]);
  });

  test('a time that is none, or one the API refuses, is shown next to its field, and what was typed stays', async () => {
    // A person quicker than the form's own focus move (into Quiet from, once it is drawn) stays where they went.
    expect(await focusAfterQuickMove(page, '#quiet-add', 'quiet-end')).toBe('quiet-end');
    const [start, end] = [
      page.getByRole('textbox', { name: 'Quiet from', exact: true }),
      page.getByRole('textbox', { name: 'Quiet until', exact: true }),
    ];
    const problemOf = async (field: typeof start): Promise<string | null> => {
      await until(async () => ((await field.getAttribute('aria-invalid')) === 'true' ? true : undefined));
      const describedBy = (await field.getAttribute('aria-describedby'))!.split(' ');
      return page.locator(`#${describedBy[0]}`).textContent();
    };
    await start.fill('25:00');
    await end.fill('07:00');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // Said at once, with examples in the person's format.
    expect(await problemOf(start)).toBe(`Write a time of day, such as ${await clock('07:00')} or ${await clock('22:30')}.`);
    expect(await start.inputValue()).toBe('25:00');
    expect(await end.inputValue()).toBe('07:00');
    // The API's refusal, in the form's words, next to its field.
    await start.fill('7:00 AM');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await problemOf(end)).toBe('The end must be another time than the start.');
    expect(await start.inputValue()).toBe('7:00 AM');
    expect((await quietHours()).windows).toHaveLength(1);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(problems.splice(0)).toEqual([expect.stringMatching(/^400 .*\/app\/api\/settings\/quiet-hours$/)]);
  });

  test("the quiet hours' times are in the person's own format, in the list and in the status alike", async () => {
    const { windows } = await quietHours();
    const window = { start: '22:30', end: '06:15', speech: true, sounds: true };
    expect((await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { windows: [window] } })).status).toBe(200);
    for (const [locale, list, status] of [
      ['en-US', /^10:30\sPM – 6:15\sAM$/, /^Quiet until (\w{3} )?\d{1,2}:\d{2}\s[AP]M — sounds and speech$/],
      ['en-GB', /^22:30 – 0?6:15$/, /^Quiet until (\w{3} )?\d{1,2}:\d{2} — sounds and speech$/],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
      try {
        const tab = await signIn(context, daemon, 'settings');
        const section = tab.getByRole('region', { name: 'Quiet hours' });
        await section.getByRole('button', { name: 'Quiet for 1 hour' }).click();
        await section.getByText(status).waitFor();
        expect(await section.getByRole('listitem').getByText(list).count()).toBe(1);
        await section.getByRole('button', { name: 'Turn quiet off' }).click();
        await section.getByText(/^Not quiet now/).waitFor();
      } finally {
        await context.close();
      }
    }
    await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { windows } });
  });

  test("an invalid value shows the API's error next to its field and changes nothing", async () => {
    const before = await settings();
    const cap = page.getByRole('spinbutton', { name: 'Notifications kept per app' });
    await cap.fill('0');
    await cap.press('Tab'); // leaving the field saves it
    await until(async () => ((await cap.getAttribute('aria-invalid')) === 'true' ? true : undefined));
    const problemId = (await cap.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-problem'))!;
    expect(await page.locator(`#${problemId}`).textContent()).toBe('Invalid value for historyCapPerApp: an integer from 1 to 100000.');
    expect(await cap.inputValue()).toBe('0'); // what the person typed stays
    expect(await settings()).toEqual(before);
    expect(problems.splice(0)).toEqual([expect.stringMatching(/^400 .*\/app\/api\/settings$/)]);
  });

  test('a setting changed and reset to its default', async () => {
    const cap = page.getByRole('spinbutton', { name: 'Notifications kept per app' });
    await cap.fill('500');
    await cap.press('Tab');
    await until(async () => ((await settings()).historyCapPerApp === 500 ? true : undefined));
    await until(async () => ((await cap.getAttribute('aria-invalid')) === null ? true : undefined)); // its error is gone
    await page.getByRole('button', { name: 'Reset to default (Notifications kept per app)' }).click();
    await until(async () => ((await settings()).historyCapPerApp === 1000 ? true : undefined));
    await until(async () => ((await cap.inputValue()) === '1000' ? true : undefined));
    // A switch is saved as it is flipped.
    await page.getByRole('switch', { name: 'Show the card picture on banners' }).check();
    await until(async () => ((await settings()).bannerCardImage === true ? true : undefined));
    await page.getByRole('button', { name: 'Reset to default (Show the card picture on banners)' }).click();
    await until(async () => ((await settings()).bannerCardImage === false ? true : undefined));
    expect(problems).toEqual([]);
  });

  test('a switch flipped on and off, the answer to "on" coming last, shows what the daemon has: off', async () => {
    const toggle = page.getByRole('switch', { name: 'Show the card picture on banners' });
    expect((await settings()).bannerCardImage).toBe(false);
    await until(async () => ((await toggle.isChecked()) ? undefined : true), 'the reset before to be shown');
    // The daemon answers a change once it is on disk, which a busy machine makes slow, and the browser sends over
    // several connections: here the answer to "on" is held until the answer to "off" has come.
    const saveUrl = '**/app/api/settings';
    const saving = (on: boolean) => (request: { method(): string; postDataJSON(): any }) =>
      request.method() === 'PUT' && request.postDataJSON()?.bannerCardImage === on;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(saveUrl, async (route) => {
      const answer = await route.fetch();
      if (saving(true)(route.request())) await released;
      await route.fulfill({ response: answer });
    });
    await toggle.check();
    await until(async () => ((await settings()).bannerCardImage === true ? true : undefined));
    const offAnswered = page.waitForResponse((response) => saving(false)(response.request()));
    await toggle.uncheck();
    await offAnswered;
    const onAnswered = page.waitForResponse((response) => saving(true)(response.request()));
    release();
    await onAnswered;
    await page.unroute(saveUrl);
    await page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => setTimeout(resolve, 100))));
    expect((await settings()).bannerCardImage).toBe(false);
    expect(await toggle.isChecked()).toBe(false);
    expect(problems).toEqual([]);
  });

  test('an app muted on the page has its next banner held back', async () => {
    const card = appCard('Builds');
    expect(await card.getByText(/^Last: Build 42 passed · /).count()).toBe(1);
    await card.getByRole('switch', { name: 'Mute' }).check();
    await until(async () =>
      (await daemon.api('GET', '/v1/apps/settings?app=builds')).json.apps[0].settings.muteBanners === true ? true : undefined,
    );
    // docs/api/apps.md#a10: stored with held "app-muted", no banner, sound or speech.
    const record = await notify('builds', 'Build 43 passed');
    expect(record.held).toBe('app-muted');
    await card.getByRole('switch', { name: 'Mute' }).uncheck();
    await until(async () =>
      (await daemon.api('GET', '/v1/apps/settings?app=builds')).json.apps[0].settings.muteBanners === false ? true : undefined,
    );
    expect((await notify('builds', 'Build 44 passed')).held).toBeUndefined();
    expect(problems).toEqual([]);
  });

  test('each app is one line — picture, name, Mute, "Customize…" — and Customize shows the rest, with the keyboard', async () => {
    await openSettings();
    const card = appCard('Builds');
    // On the line: Mute and Customize only; the rest waits behind Customize.
    expect(await card.getByRole('switch').count()).toBe(1);
    expect(await card.getByRole('textbox').count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Remove Builds' }).count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Make a sending key for Builds' }).count()).toBe(0);
    const customizeButton = card.getByRole('button', { name: 'Customize Builds…' });
    expect(await customizeButton.getAttribute('aria-expanded')).toBe('false');
    // The line stays one line high: the picture, the name and the buttons side by side.
    const [picture, name, mute] = await Promise.all(
      [card.locator('.app-picture'), card.getByRole('heading', { name: 'Builds' }), customizeButton].map(
        async (part) => (await part.boundingBox())!,
      ),
    );
    expect(Math.abs(picture.y + picture.height / 2 - (mute.y + mute.height / 2))).toBeLessThan(8);
    expect(name.x).toBeGreaterThan(picture.x + picture.width);

    await customizeButton.focus();
    await page.keyboard.press('Enter');
    await card.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
    expect(await customizeButton.getAttribute('aria-expanded')).toBe('true');
    await card.getByRole('button', { name: 'Make a sending key for Builds' }).waitFor();
    await card.getByRole('button', { name: 'Remove Builds' }).waitFor();
    // Tab goes from Customize into what it opened.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe(
      await card.getByRole('textbox', { name: 'Name', exact: true }).getAttribute('id'),
    );
    await customizeButton.focus();
    await page.keyboard.press('Space');
    await card.getByRole('textbox', { name: 'Name', exact: true }).waitFor({ state: 'detached' });
    expect(await customizeButton.getAttribute('aria-expanded')).toBe('false');
    expect(problems).toEqual([]);
  });

  test('how long banners stay is one control, which keeps both of its keys saying one thing', async () => {
    const appSettings = async () => (await daemon.api('GET', '/v1/apps/settings?app=builds')).json.apps[0].settings;
    await openSettings();
    await customize('Builds');
    const card = appCard('Builds');
    // One control, not a switch "until closed" beside a number of seconds.
    expect(await page.getByRole('switch', { name: /until closed/i }).count()).toBe(0);
    const stay = card.getByRole('group', { name: 'Banners stay' });
    const untilClosed = stay.getByRole('radio', { name: 'Until I close them' });
    const forSeconds = stay.getByRole('radio', { name: 'For a number of seconds' });
    const seconds = stay.getByRole('spinbutton', { name: 'Seconds a banner stays' });
    expect(await untilClosed.isChecked()).toBe(true); // the default: persistent, no timeout
    await seconds.fill('30');
    await seconds.press('Tab');
    await until(async () => ((await appSettings()).timeout === 30 ? true : undefined));
    expect(await appSettings()).toMatchObject({ persistent: false, timeout: 30 });
    await until(async () => ((await forSeconds.isChecked()) ? true : undefined), 'the choice to follow the seconds');
    // With the keyboard: the arrows choose, and each choice is saved at once.
    await forSeconds.focus();
    const answered = page.waitForResponse((response) => response.url().endsWith('/app/api/settings/apps'));
    await page.keyboard.press('ArrowLeft');
    await until(async () => ((await appSettings()).persistent === true ? true : undefined));
    expect(await appSettings()).toMatchObject({ persistent: true, timeout: 0 });
    await until(async () => ((await untilClosed.isChecked()) ? true : undefined), 'the choice to stay');
    // Once the page has the saved choice, the person's 30 still waits in the field for "For" (not a suggestion).
    await answered;
    await page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => setTimeout(resolve, 100))));
    expect(await seconds.inputValue()).toBe('30');
    // The answer to this save comes late (the daemon answers once the change is on disk, which a busy machine
    // makes slow): held here until the next save, refused, has been shown. Only the newest save may say whether
    // the field is in error, so the late success does not wipe the refusal.
    const saveUrl = '**/app/api/settings/apps';
    const isLate = (request: { postDataJSON(): any }) => request.postDataJSON()?.timeout === 30;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(saveUrl, async (route) => {
      const answer = await route.fetch();
      if (isLate(route.request())) await released;
      await route.fulfill({ response: answer });
    });
    await page.keyboard.press('ArrowRight');
    await until(async () => ((await appSettings()).timeout === 30 ? true : undefined));
    expect(await appSettings()).toMatchObject({ persistent: false, timeout: 30 });
    // 0 seconds is until closed; a value the API refuses is said next to the field, and nothing changes.
    await seconds.fill('100000');
    await seconds.press('Tab');
    await until(async () => ((await seconds.getAttribute('aria-invalid')) === 'true' ? true : undefined));
    const lateAnswer = page.waitForResponse((response) => isLate(response.request()));
    release();
    await lateAnswer;
    await page.unroute(saveUrl);
    await page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => setTimeout(resolve, 100))));
    expect(await seconds.getAttribute('aria-invalid')).toBe('true');
    expect(await appSettings()).toMatchObject({ persistent: false, timeout: 30 });
    expect(problems.splice(0)).toEqual([expect.stringMatching(/^400 .*\/app\/api\/settings\/apps$/)]);
    await seconds.fill('0');
    await seconds.press('Tab');
    await until(async () => ((await appSettings()).persistent === true ? true : undefined));
    expect(await appSettings()).toMatchObject({ persistent: true, timeout: 0 });
    await until(async () => ((await untilClosed.isChecked()) ? true : undefined), 'the choice to follow the 0');
    expect(await seconds.getAttribute('aria-invalid')).toBeNull();
    expect(problems).toEqual([]);
  });

  test('an app renamed on its card is shown by that name; emptied, it has its own again', async () => {
    await daemon.api('POST', '/v1/notify', { body: { app: 'nas-backup', title: 'Backup done' } });
    await openSettings();
    await customize('nas-backup');
    const field = appCard('nas-backup').getByRole('textbox', { name: 'Name', exact: true });
    await field.fill('Backups on the NAS');
    await field.press('Tab');
    await appCard('Backups on the NAS').waitFor();
    expect(await appCard('Backups on the NAS').getByText('nas-backup ·').count()).toBe(1); // its own id, under the name
    expect((await daemon.api('GET', '/v1/apps/settings?app=nas-backup')).json.apps[0].appName).toBe('Backups on the NAS');
    const renamed = appCard('Backups on the NAS').getByRole('textbox', { name: 'Name', exact: true });
    await renamed.fill('');
    await renamed.press('Tab');
    await appCard('nas-backup').waitFor();
    expect((await daemon.api('GET', '/v1/apps/settings?app=nas-backup')).json.apps[0].settings.displayName).toBeNull();
    expect(problems).toEqual([]);
  });

  test("a sending key made on an app's card is shown once with its lines, sends as that app, and is revoked there", async () => {
    await openSettings();
    await customize('Builds');
    const card = appCard('Builds');
    await card.getByRole('textbox', { name: 'Name of the new key' }).fill('CI on the NAS');
    await card.getByRole('button', { name: 'Make a sending key for Builds' }).click();
    const shown = card.getByRole('region', { name: 'The sending key “CI on the NAS”' });
    await shown.waitFor();
    const key = (await shown.locator('code.key-value').textContent())!.trim();
    expect(key).toMatch(/^tk_[a-z0-9]{29}$/);
    expect(await shown.textContent()).toContain(`curl -u :${key} -d "Hello from builds" http://127.0.0.1:${daemon.port}/builds`);
    await focusIsOn(
      await shown
        .getByRole('heading')
        .getAttribute('id')
        .then((id) => id!),
    );

    // The key sends as the app, in ntfy's dialect as the lines say.
    const sent = await daemon.api('POST', '/builds', {
      token: null,
      headers: { Authorization: `Bearer ${key}` },
      body: 'Sent with the key',
    });
    expect(sent.status).toBe(200);
    expect((await notify('builds', 'After the key')).notification.title).toBe('After the key');

    await shown.getByRole('button', { name: 'Done: hide the key' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(key);
    await openSettings();
    await customize('Builds');
    const row = appCard('Builds').getByRole('list', { name: 'Sending keys of Builds' }).getByRole('listitem');
    await row.filter({ hasText: 'CI on the NAS' }).filter({ hasText: 'last used' }).waitFor();

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke the sending key “CI on the NAS”?' }).getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    const after = await daemon.api('POST', '/builds', { token: null, headers: { Authorization: `Bearer ${key}` }, body: 'Too late' });
    expect(after.status).toBe(401);
    expect(problems).toEqual([]);
  });

  test('removing an app asks first, says what goes, and Cancel keeps it', async () => {
    await openSettings();
    await customize('old-tool');
    const card = appCard('old-tool');
    await card.getByRole('button', { name: 'Remove old-tool' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove old-tool?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Its 1 notification in History, its banners, templates, pictures, replies');
    await focusBecomes(page, 'Cancel'); // the safe answer first
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect((await daemon.api('GET', '/v1/apps/settings?app=old-tool')).status).toBe(200);

    await card.getByRole('button', { name: 'Remove old-tool' }).click();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await card.waitFor({ state: 'detached' });
    expect((await daemon.api('GET', '/v1/apps/settings?app=old-tool')).status).toBe(404);
    expect((await daemon.api('GET', '/v1/history?app=old-tool')).json.items).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('Test voice speaks a sample with the real engine, and leaves nothing in History', async () => {
    const voice = page.getByRole('region', { name: 'Sounds and voice' });
    await voice.getByText('espeak-ng, in use').waitFor();
    const audio = path.join(daemon.supportDir, 'audio');
    const before = await readdir(audio).catch(() => [] as string[]);
    const ownBefore = (await daemon.api('GET', '/v1/history?app=notifier')).json.items.length;
    await voice.getByRole('button', { name: 'Test voice' }).click();
    await voice
      .getByText(/^Said “This is how Notifier reads your notifications aloud\.” \(\d+\.\d seconds\)\.$/)
      .waitFor({ timeout: 20_000 });
    const written = (await readdir(audio)).filter((name) => !before.includes(name) && name.endsWith('.wav'));
    expect(written).toHaveLength(1);
    expect((await daemon.api('GET', '/v1/history?app=notifier')).json.items).toHaveLength(ownBefore);
    expect(problems).toEqual([]);
  });

  test('a voice chosen on the page is the setting; with the engine off, Test voice says why nothing is spoken', async () => {
    const voice = page.getByRole('region', { name: 'Sounds and voice' });
    const { options } = (await daemon.api('GET', '/v1/settings')).json;
    const chosen = options.voices.find((known: { id: string }) => known.id !== 'default');
    await voice.getByRole('combobox', { name: 'Voice', exact: true }).selectOption(chosen.id);
    await until(async () => ((await settings()).voiceDefault === chosen.id ? true : undefined));

    await voice.getByRole('combobox', { name: 'Speech engine' }).selectOption('off');
    await until(async () => ((await settings()).voiceEngine === 'off' ? true : undefined));
    await voice.getByRole('button', { name: 'Test voice' }).click();
    await voice.getByText('Speech is turned off: choose the system voice as the speech engine first.').waitFor();
    expect(problems.splice(0)).toEqual([expect.stringMatching(/^409 .*\/app\/api\/settings\/voice\/test$/)]);

    await voice.getByRole('button', { name: 'Reset to default (Speech engine)' }).click();
    await voice.getByRole('button', { name: 'Reset to default (Voice)' }).click();
    await until(async () => {
      const now = await settings();
      return now.voiceEngine === 'system' && now.voiceDefault === 'default' ? true : undefined;
    });
    expect(problems).toEqual([]);
  });

  test('axe finds no serious or critical violation, light and dark, wide and narrow, with the forms and an app customized', async () => {
    await openSettings();
    await quietSection().getByRole('button', { name: 'Add quiet hours' }).click();
    await customize('Builds');
    await appCard('Builds').getByRole('button', { name: 'Make a sending key for Builds' }).click();
    await appCard('Builds')
      .getByRole('region', { name: /^The sending key/ })
      .waitFor();
    await expectAxeClean(page);
    expect(problems).toEqual([]);
  });
});
