// The Settings page of the person's app (docs/app.md#settings), in headless Chromium against a real daemon: quiet
// hours added there are the daemon's and hold a notification back as documented; a muted app's next banner is
// held; an invalid value is refused next to its field and changes nothing; a key goes back to its default; removing
// an app asks first; "Test voice" speaks (the real espeak-ng) and leaves nothing in History; quiet hours are added
// with the keyboard alone; axe finds nothing serious, light or dark.

import { beforeAll, describe, expect, test } from '@jest/globals';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, focusBecomes, openAppTab, startBrowser, startWebApp } from '../helpers/app-pages.js';
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

const quietSection = () => page.getByRole('region', { name: 'Quiet hours' });
const appCard = (name: string) => page.getByRole('region', { name, exact: true });

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
    await quietSection().getByRole('button', { name: 'Add quiet hours' }).click();
    await page.getByRole('textbox', { name: 'Start', exact: true }).fill(start);
    await page.getByRole('textbox', { name: 'End', exact: true }).fill(end);
    await page.getByRole('checkbox', { name: 'Banners (kept in History, not shown)' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await quietSection()
      .getByRole('listitem')
      .filter({ hasText: `${start} – ${end}` })
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
      .getByRole('button', { name: `Remove quiet hours ${start} to ${end}` })
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
    await quietSection().getByText('22:30 – 06:15').waitFor();

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
    await quietSection().getByRole('button', { name: 'Edit quiet hours 22:30 to 06:15' }).click();
    await page.getByRole('heading', { name: 'Edit quiet hours' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Start', exact: true }).inputValue()).toBe('22:30');
    expect(await page.getByRole('checkbox', { name: 'Monday' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Tuesday' }).isChecked()).toBe(false);
    await page.getByRole('textbox', { name: 'End', exact: true }).fill('07:45');
    await page.getByRole('checkbox', { name: 'Speak a summary of what came in when it ends' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await focusBecomes(page, 'Edit');
    expect((await quietHours()).windows).toEqual([{ ...before, end: '07:45', speakSummary: true }]);
    await quietSection()
      .getByText(/a spoken summary at the end/)
      .waitFor();
    expect(problems).toEqual([]);
  });

  test('a time the API refuses is shown next to its field, and what was typed stays', async () => {
    await quietSection().getByRole('button', { name: 'Add quiet hours' }).click();
    await page.getByRole('textbox', { name: 'Start', exact: true }).fill('25:00');
    await page.getByRole('textbox', { name: 'End', exact: true }).fill('07:00');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const start = page.getByRole('textbox', { name: 'Start', exact: true });
    await until(async () => ((await start.getAttribute('aria-invalid')) === 'true' ? true : undefined));
    const describedBy = (await start.getAttribute('aria-describedby'))!.split(' ');
    expect(await page.locator(`#${describedBy[0]}`).textContent()).toBe(
      'Write the time as HH:MM on the 24-hour clock, like 07:00 or 22:30.',
    );
    expect(await start.inputValue()).toBe('25:00');
    expect(await page.getByRole('textbox', { name: 'End', exact: true }).inputValue()).toBe('07:00');
    expect((await quietHours()).windows).toHaveLength(1);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(problems.splice(0)).toEqual([expect.stringMatching(/^400 .*\/app\/api\/settings\/quiet-hours$/)]);
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

  test('removing an app asks first, says what goes, and Cancel keeps it', async () => {
    await openSettings();
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

  test('axe finds no serious or critical violation, light and dark, with the quiet-hours form open', async () => {
    await openSettings();
    await quietSection().getByRole('button', { name: 'Add quiet hours' }).click();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeViolations(page)).toEqual([]);
    }
    expect(problems).toEqual([]);
  });
});
