import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, test } from '@jest/globals';
import { type Core, openCore as assemble } from '../../../daemon/core/core.js';
import type { NotificationInput } from '../../../daemon/core/notifications/checks.js';
import { log } from '../../../daemon/log.js';
import type { Banner, BannerKey, Presenter } from '../../../daemon/present/presenter.js';
import { TestPresenter } from '../../../daemon/present/test-presenter.js';
import { tempFolder, waitFor } from '../../helpers/daemon.js';
import { validateTemplate } from '../../../templates-renderer/validate.js';

// The core with the in-process test presenter: what the display is asked to draw, and what happens when the
// person acts on a banner. (Pressing buttons and replying come with the lifecycle work.)

log.setQuiet(true);
const opened: Array<{ core: Core; folder: string }> = [];

async function openCore(presenter: Presenter = new TestPresenter(), folder?: string) {
  const supportDir = folder ?? (await tempFolder('notifier-core-'));
  // No speech engine here: what speech does is tested in test/daemon/lifecycle.test.ts and test/daemon/core/voice/voice.test.ts.
  const core = await assemble({ supportDir, presenter, speech: null });
  await core.history.ready;
  opened.push({ core, folder: supportDir });
  return { core, supportDir };
}

afterEach(async () => {
  for (const { core, folder } of opened.splice(0)) {
    await core.close();
    await rm(folder, { recursive: true, force: true });
  }
});

/** Two different 1x1 PNGs, sent inline: each is kept as a file of its own. */
const RED_PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const BLUE_PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPj/HwADBwIAMCbHYQAAAABJRU5ErkJggg==';

const note = (fields: Partial<NotificationInput> & { app?: string } = {}): NotificationInput => ({
  app: 'core',
  title: 'Hello',
  ...fields,
});

describe('what the presenter is asked to draw', () => {
  test('a notification becomes a banner with its texts, buttons, link and urgency', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(
      note({
        id: 'n1',
        subtitle: 'sub',
        body: 'body',
        url: 'https://example.com',
        priority: 'urgent',
        group: 'g',
        snooze: true,
        buttons: [
          { label: 'Open docs', url: 'https://example.com/docs' },
          { label: 'Answer', reply: { placeholder: 'Say…' } },
        ],
      }),
    );
    const expected: Banner = {
      key: { app: 'core', id: 'n1' },
      appName: 'core',
      title: 'Hello',
      subtitle: 'sub',
      body: 'body',
      url: 'https://example.com',
      actions: [
        { actionId: 'open-docs', label: 'Open docs', kind: 'url', url: 'https://example.com/docs' },
        { actionId: 'answer', label: 'Answer', kind: 'reply', placeholder: 'Say…' },
      ],
      snooze: true,
      priority: 'urgent',
      group: 'g',
      expireSeconds: null,
      sound: 'default',
    };
    expect(presenter.banner('core', 'n1')).toEqual(expected);
  });

  test('lifetime and sound follow the notification, then the app defaults (docs/api/notifications.md#n11, #n12)', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 't', timeout: 12 }));
    await core.notifications.notify(note({ id: 'np', persistent: false }));
    await core.notifications.notify(note({ id: 'quiet', sound: 'none' }));
    await core.appAdmin.register({ app: 'defaults', defaults: { timeout: 30, sound: 'Ping' } });
    await core.notifications.notify(note({ app: 'defaults', id: 'd' }));
    await core.notifications.notify(note({ id: 'hidden', showSubtitle: false, subtitle: 'not shown' }));
    expect(presenter.banner('core', 't')!.expireSeconds).toBe(12);
    expect(presenter.banner('core', 'np')!.expireSeconds).toBe(8);
    expect(presenter.banner('core', 'quiet')!.sound).toBeNull();
    expect(presenter.banner('defaults', 'd')).toMatchObject({ expireSeconds: 30, sound: 'Ping' });
    expect(presenter.banner('core', 'hidden')!.subtitle).toBeUndefined();
  });

  test('a reused id replaces the banner in place: `replace`, never a second `show`', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 'same', title: 'Building' }));
    await core.notifications.notify(note({ id: 'same', title: 'Built' }));
    expect(presenter.calls.map((call) => call.call)).toEqual(['show', 'replace']);
    expect(presenter.onScreen.size).toBe(1);
    expect(presenter.banner('core', 'same')!.title).toBe('Built');
  });

  test('two notifications with one id on their way in at once (pictures being kept): the newer takes the place, the older goes no further', async () => {
    const presenter = new TestPresenter();
    const { core, supportDir } = await openCore(presenter);
    // Both wait for their picture to be copied into the support folder: the older finds its place taken.
    const [older, newer] = await Promise.all([
      core.notifications.notify(note({ id: 'both', title: 'Older', image: RED_PIXEL })),
      core.notifications.notify(note({ id: 'both', title: 'Newer', image: BLUE_PIXEL })),
    ]);
    expect(presenter.calls.map((call) => call.call)).toEqual(['show']);
    expect(presenter.banner('core', 'both')!.title).toBe('Newer');
    expect(core.history.recordsOf('core').map((record) => record.notification.title)).toEqual(['Newer']);
    expect([older, newer]).toEqual(['both', 'both']);
    // The older one's picture is not kept: only the newer's file stays.
    const kept = core.history.get('core', 'both')!.imagePath!;
    await waitFor(async () => ((await readdir(path.dirname(kept))).length === 1 ? true : undefined), "the older picture's removal");
    expect(kept.startsWith(supportDir)).toBe(true);
  });

  test('dismiss closes the banner on the display; showing the id again is a new `show`', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 'd' }));
    await core.screen.dismiss('core', 'd');
    expect(presenter.onScreen.size).toBe(0);
    await core.notifications.notify(note({ id: 'd' }));
    expect(presenter.calls.map((call) => call.call)).toEqual(['show', 'close', 'show']);
  });

  test('presentation voice without a speech engine shows a banner, so nothing is lost', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 'v', presentation: 'voice', speak: true }));
    expect(presenter.banner('core', 'v')).toBeDefined();
  });

  test('a display that fails never fails the notification', async () => {
    class BrokenPresenter extends TestPresenter {
      override async show(): Promise<void> {
        throw new Error('display went away');
      }
    }
    const { core } = await openCore(new BrokenPresenter());
    await expect(core.notifications.notify(note({ id: 'b' }))).resolves.toBe('b');
    expect(core.history.get('core', 'b')).toBeDefined();
  });
});

describe("the person's side", () => {
  const ending = (core: Core, id: string) => {
    const record = core.history.get('core', id)!;
    return { dismissedAt: record.dismissedAt, actionUsed: record.actionUsed };
  };

  test('closing a banner dismisses it with actionUsed close; a banner that expired records timeout', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 'closed' }));
    await core.notifications.notify(note({ id: 'expired', timeout: 5 }));
    presenter.closeByPerson('core', 'closed');
    presenter.closeByPerson('core', 'expired', 'expired');
    await waitFor(() => (core.history.get('core', 'expired')!.dismissedAt ? true : undefined), 'the dismissal');
    expect(ending(core, 'closed')).toEqual({ dismissedAt: expect.any(String), actionUsed: 'close' });
    expect(ending(core, 'expired')).toEqual({ dismissedAt: expect.any(String), actionUsed: 'timeout' });
    expect(core.banners.isOnScreen('core', 'closed')).toBe(false);
  });

  test('a click on the banner records open and closes it', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 'clicked', url: 'https://example.com' }));
    presenter.click('core', 'clicked');
    await waitFor(() => (core.history.get('core', 'clicked')!.dismissedAt ? true : undefined), 'the click');
    expect(ending(core, 'clicked').actionUsed).toBe('open');
    expect(presenter.onScreen.size).toBe(0);
  });
});

describe('after a restart', () => {
  test('the newest undismissed banners come back, quietly, and dismissed ones do not', async () => {
    const folder = await tempFolder('notifier-core-');
    const first = new TestPresenter();
    const core = await assemble({ supportDir: folder, presenter: first, speech: null });
    for (let n = 1; n <= 9; n++) await core.notifications.notify(note({ id: `n${n}` }));
    await core.screen.dismiss('core', 'n9');
    await core.close();

    const second = new TestPresenter();
    await openCore(second, folder);
    await waitFor(() => (second.onScreen.size > 0 ? true : undefined), 'the restore');
    expect([...second.onScreen.values()].map((banner) => banner.key.id).sort()).toEqual(['n3', 'n4', 'n5', 'n6', 'n7', 'n8']);
    expect([...second.onScreen.values()].every((banner) => banner.sound === null)).toBe(true);
  });
});

describe('what is on screen never outgrows History', () => {
  test('a banner whose record the per-app cap evicts is taken off the screen', async () => {
    const folder = await tempFolder('notifier-core-');
    await writeFile(path.join(folder, 'settings.json'), JSON.stringify({ historyCapPerApp: 2 }));
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter, folder);
    for (const id of ['a', 'b', 'c']) await core.notifications.notify(note({ id }));
    expect([...presenter.onScreen.values()].map((banner) => banner.key.id).sort()).toEqual(['b', 'c']);
    expect(core.banners.isOnScreen('core', 'a')).toBe(false);
  });

  test('a lower cap takes every record beyond it at once, oldest first, with their banners', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    for (const id of ['a', 'b', 'c', 'd', 'e']) await core.notifications.notify(note({ id }));
    const removed: string[] = [];
    core.history.onChange((event) => {
      if (event.type === 'removed') removed.push(event.record.id);
    });
    await core.settings.change({ historyCapPerApp: 2 });
    await waitFor(() => (core.history.recordsOf('core').length === 2 ? true : undefined), 'the trim');
    expect(core.history.recordsOf('core').map((record) => record.id)).toEqual(['d', 'e']);
    expect(removed).toEqual(['a', 'b', 'c']);
    expect([...presenter.onScreen.values()].map((banner) => banner.key.id).sort()).toEqual(['d', 'e']);
  });
});

describe('keys', () => {
  test('banners of different apps with the same id are different banners', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ app: 'a', id: 'x' }));
    await core.notifications.notify(note({ app: 'b', id: 'x' }));
    await core.screen.dismissAll({ app: 'a' });
    const keys: BannerKey[] = [...presenter.onScreen.values()].map((banner) => banner.key);
    expect(keys).toEqual([{ app: 'b', id: 'x' }]);
  });
});

describe('stacks on a display that draws none (docs/desktop.md, stacks)', () => {
  const freedesktop = () => {
    const presenter = new TestPresenter();
    presenter.drawsStacks = false;
    return presenter;
  };
  const drawn = (presenter: TestPresenter) =>
    [...presenter.onScreen.values()].map((banner) => `${banner.title}${banner.more ? ` +${banner.more}` : ''}`);

  test("one passive banner per stack: the newest, in the slot of the one before, with the others' count", async () => {
    const presenter = freedesktop();
    const { core } = await openCore(presenter);
    for (const n of [1, 2, 3]) await core.notifications.notify(note({ id: `p${n}`, title: `P${n}` }));
    expect(drawn(presenter)).toEqual(['P3 +2']);
    const last = presenter.calls.at(-1)!;
    expect(last).toMatchObject({
      call: 'replace',
      key: { app: 'core', id: 'p3' },
      banner: { replaces: { app: 'core', id: 'p2' }, more: 2 },
    });
    expect(core.stacks.list()[0]).toMatchObject({ count: 3 });
    expect(core.banners.list()).toHaveLength(3);
  });

  test('a banner with buttons is drawn on its own; another group, or stacking never, is not collapsed', async () => {
    const presenter = freedesktop();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 'q', title: 'Q', buttons: [{ label: 'Yes' }] }));
    await core.notifications.notify(note({ id: 'p1', title: 'P1' }));
    await core.notifications.notify(note({ id: 'p2', title: 'P2' }));
    await core.notifications.notify(note({ id: 'g1', title: 'G1', group: 'other' }));
    expect(drawn(presenter).sort()).toEqual(['G1', 'P2 +1', 'Q']);
    await core.settings.change({ stacking: 'never' });
    await core.notifications.notify(note({ id: 'n1', title: 'N1', group: 'third' }));
    await core.notifications.notify(note({ id: 'n2', title: 'N2', group: 'third' }));
    expect(drawn(presenter).sort()).toEqual(['G1', 'N1', 'N2', 'P2 +1', 'Q']);
  });

  test('dismissing the drawn banner shows the next newest in its slot; dismissing a hidden one lowers the count', async () => {
    const presenter = freedesktop();
    const { core } = await openCore(presenter);
    for (const n of [1, 2, 3, 4]) await core.notifications.notify(note({ id: `p${n}`, title: `P${n}` }));
    await core.screen.dismiss('core', 'p1');
    await Promise.resolve();
    expect(drawn(presenter)).toEqual(['P4 +2']);
    await core.screen.dismiss('core', 'p4');
    await Promise.resolve();
    expect(drawn(presenter)).toEqual(['P3 +1']);
    expect(presenter.calls.at(-1)).toMatchObject({ call: 'replace', key: { id: 'p3' }, banner: { replaces: { id: 'p4' }, sound: null } });
    await core.screen.dismissAll({ app: 'core' });
    await Promise.resolve();
    expect(drawn(presenter)).toEqual([]);
    expect(presenter.calls.at(-1)).toMatchObject({ call: 'close', key: { id: 'p3' } });
  });

  test('the person closing the drawn banner closes every banner it stands for; its expiry closes only itself', async () => {
    const presenter = freedesktop();
    const { core } = await openCore(presenter);
    for (const n of [1, 2, 3]) await core.notifications.notify(note({ id: `p${n}`, title: `P${n}` }));
    presenter.closeByPerson('core', 'p3');
    await waitFor(() => (core.history.get('core', 'p1')?.actionUsed === 'close' ? true : undefined), 'the stack closed');
    expect(core.banners.list()).toEqual([]);
    expect(drawn(presenter)).toEqual([]);
    for (const n of [4, 5]) await core.notifications.notify(note({ id: `p${n}`, title: `P${n}` }));
    presenter.closeByPerson('core', 'p5', 'expired');
    await waitFor(() => (core.history.get('core', 'p5')?.actionUsed === 'timeout' ? true : undefined), 'the expiry');
    await Promise.resolve();
    expect(drawn(presenter)).toEqual(['P4']);
  });

  test('a display that draws stacks gets every banner', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    for (const n of [1, 2, 3]) await core.notifications.notify(note({ id: `p${n}`, title: `P${n}` }));
    expect(drawn(presenter)).toEqual(['P1', 'P2', 'P3']);
  });
});

describe('a saved template on the live banner', () => {
  const saveTemplate = async (core: Core, template: Record<string, unknown>) => {
    const { template: valid, errors } = validateTemplate({ app: 'core', ...template });
    if (!valid) throw new Error(JSON.stringify(errors));
    await core.designs.putTemplate(valid);
  };

  test("its buttons (rules applied, actions added) and its progress reach the banner; a template's snooze action snoozes", async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await saveTemplate(core, {
      name: 'build',
      grid: { rows: 2, cols: 1 },
      cells: [
        { row: 0, col: 0, component: { type: 'text', binding: '{title}' } },
        { row: 1, col: 0, component: { type: 'progress', binding: '{percent}' } },
      ],
      actionRules: [
        { match: 'retry', relabel: 'Run again', position: 1 },
        { match: 'ignore', hide: true },
        { add: { id: 'later', label: 'Later', kind: 'snooze', snoozeMinutes: 30 } },
      ],
    });
    await core.notifications.notify(
      note({
        id: 't',
        template: 'build',
        metadata: { percent: 40 },
        buttons: [{ label: 'Retry' }, { label: 'Open' }, { label: 'Ignore' }],
      }),
    );
    const banner = presenter.banner('core', 't')!;
    expect(banner.actions.map((action) => `${action.actionId}:${action.label}`)).toEqual(['open:Open', 'retry:Run again', 'later:Later']);
    expect(banner.progress).toBe(40);
    presenter.press('core', 't', 'later');
    await waitFor(() => (core.history.get('core', 't')?.snoozedUntil ? true : undefined), 'the snooze');
  });

  test('showSubtitle and showBody hide parts only without a saved template (docs/api/notifications.md#n7)', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await saveTemplate(core, { name: 'v1', layout: 'compact' });
    await core.notifications.notify(note({ id: 'builtin', subtitle: 'sub', body: 'body', showSubtitle: false, showBody: false }));
    await core.notifications.notify(
      note({ id: 'saved', template: 'v1', subtitle: 'sub', body: 'body', showSubtitle: false, showBody: false }),
    );
    expect(presenter.banner('core', 'builtin')).not.toHaveProperty('subtitle');
    expect(presenter.banner('core', 'builtin')).not.toHaveProperty('body');
    expect(presenter.banner('core', 'saved')).toMatchObject({ subtitle: 'sub', body: 'body' });
  });
});

describe('what the person sees after acting (docs/desktop.md, failures)', () => {
  test('a button whose action fails: the banner is drawn again with the reason, History keeps the note', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    presenter.openFails = 'no browser';
    await core.notifications.notify(note({ id: 'f', buttons: [{ label: 'Docs', url: 'https://example.com/docs' }] }));
    presenter.press('core', 'f', 'docs');
    // The note is in History's memory at once but the banner is drawn again only once it is on disk: wait for the
    // banner, the later of the two.
    await waitFor(() => presenter.banner('core', 'f')?.problem, 'the banner saying why');
    expect(presenter.banner('core', 'f')).toMatchObject({ problem: 'Docs did not work: no browser', sound: null });
    expect(core.history.get('core', 'f')!.actionNote).toBe('Docs: no browser');
  });

  test('what the display could not do (no reply window): History keeps the note and the banner says why', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 'r', buttons: [{ label: 'Answer', reply: {} }] }));
    presenter.failToAct('core', 'r', 'Answer', 'no reply window program is installed');
    await waitFor(() => presenter.banner('core', 'r')?.problem, 'the banner saying why');
    expect(presenter.banner('core', 'r')!.problem).toBe('Answer did not work: no reply window program is installed');
    expect(core.history.get('core', 'r')!.actionNote).toBe('Answer: no reply window program is installed');
  });

  test('a click whose link cannot open: a short banner of the app says so, and closes by itself', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    presenter.openFails = 'no browser';
    await core.notifications.notify(note({ id: 'c', body: 'text', url: 'https://example.com' }));
    presenter.click('core', 'c');
    await waitFor(() => (core.history.get('core', 'c')?.actionUsed === 'open' ? true : undefined), 'the click');
    await waitFor(() => (presenter.banner('core', 'c\u0000problem') ? true : undefined), 'the short banner');
    expect(presenter.banner('core', 'c\u0000problem')).toMatchObject({
      title: 'Hello',
      body: 'text',
      problem: 'Could not open the link: no browser',
      expireSeconds: 10,
      actions: [],
    });
  });

  test('a reply closes its banner once it is stored', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notifications.notify(note({ id: 'r', buttons: [{ label: 'Answer', reply: {} }] }));
    presenter.reply('core', 'r', 'answer', 'Yes');
    await waitFor(() => (core.history.get('core', 'r')?.actionUsed === 'Answer' ? true : undefined), 'the banner to close');
    expect(core.history.get('core', 'r')).toMatchObject({ reply: 'Yes' });
    expect(presenter.banner('core', 'r')).toBeUndefined();
  });

  test('speech without an audio player is shown as a banner (suppressed: unavailable)', async () => {
    const presenter = new TestPresenter();
    const supportDir = await tempFolder('notifier-core-');
    const engine = { name: 'fake', synthesize: async () => undefined };
    const core = await assemble({ supportDir, presenter, speech: engine });
    opened.push({ core, folder: supportDir });
    await core.history.ready;
    (core.voice as { playerName: () => string | null }).playerName = () => null;
    await core.notifications.notify(note({ id: 'v', presentation: 'voice' }));
    expect(presenter.banner('core', 'v')).toBeDefined();
    expect(core.history.get('core', 'v')!.speech).toMatchObject({ suppressed: 'unavailable' });
    expect(await core.speech.status()).toMatchObject({ audioPlayer: null });
  });
});
