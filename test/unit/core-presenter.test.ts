import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, test } from '@jest/globals';
import { NotifierCore } from '../../daemon/core/notifier.js';
import type { NotificationInput } from '../../daemon/core/notifications/notify.js';
import { log } from '../../daemon/log.js';
import type { Banner, BannerKey, Presenter } from '../../daemon/present/presenter.js';
import { TestPresenter } from '../../daemon/present/test-presenter.js';
import { tempFolder, waitFor } from '../helpers/daemon.js';

// The core with the in-process test presenter: what the display is asked to draw, and what happens when the
// person acts on a banner. (Pressing buttons and replying come with the lifecycle work.)

log.setQuiet(true);
const opened: Array<{ core: NotifierCore; folder: string }> = [];

async function openCore(presenter: Presenter = new TestPresenter(), folder?: string) {
  const supportDir = folder ?? (await tempFolder('notifier-core-'));
  // No speech engine here: what speech does is tested in test/lifecycle.test.ts and test/unit/voice.test.ts.
  const core = await NotifierCore.open({ supportDir, presenter, speech: null });
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

const note = (fields: Partial<NotificationInput> & { app?: string } = {}): NotificationInput => ({
  app: 'core',
  title: 'Hello',
  ...fields,
});

describe('what the presenter is asked to draw', () => {
  test('a notification becomes a banner with its texts, buttons, link and urgency', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notify(
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
        { actionId: 'open-docs', label: 'Open docs', kind: 'url' },
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
    await core.notify(note({ id: 't', timeout: 12 }));
    await core.notify(note({ id: 'np', persistent: false }));
    await core.notify(note({ id: 'quiet', sound: 'none' }));
    await core.register({ app: 'defaults', defaults: { timeout: 30, sound: 'Ping' } });
    await core.notify(note({ app: 'defaults', id: 'd' }));
    await core.notify(note({ id: 'hidden', showSubtitle: false, subtitle: 'not shown' }));
    expect(presenter.banner('core', 't')!.expireSeconds).toBe(12);
    expect(presenter.banner('core', 'np')!.expireSeconds).toBe(8);
    expect(presenter.banner('core', 'quiet')!.sound).toBeNull();
    expect(presenter.banner('defaults', 'd')).toMatchObject({ expireSeconds: 30, sound: 'Ping' });
    expect(presenter.banner('core', 'hidden')!.subtitle).toBeUndefined();
  });

  test('a reused id replaces the banner in place: `replace`, never a second `show`', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notify(note({ id: 'same', title: 'Building' }));
    await core.notify(note({ id: 'same', title: 'Built' }));
    expect(presenter.calls.map((call) => call.call)).toEqual(['show', 'replace']);
    expect(presenter.onScreen.size).toBe(1);
    expect(presenter.banner('core', 'same')!.title).toBe('Built');
  });

  test('dismiss closes the banner on the display; showing the id again is a new `show`', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notify(note({ id: 'd' }));
    await core.dismiss('core', 'd');
    expect(presenter.onScreen.size).toBe(0);
    await core.notify(note({ id: 'd' }));
    expect(presenter.calls.map((call) => call.call)).toEqual(['show', 'close', 'show']);
  });

  test('presentation voice without a speech engine shows a banner, so nothing is lost', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notify(note({ id: 'v', presentation: 'voice', speak: true }));
    expect(presenter.banner('core', 'v')).toBeDefined();
  });

  test('a display that fails never fails the notification', async () => {
    class BrokenPresenter extends TestPresenter {
      override async show(): Promise<void> {
        throw new Error('display went away');
      }
    }
    const { core } = await openCore(new BrokenPresenter());
    await expect(core.notify(note({ id: 'b' }))).resolves.toBe('b');
    expect(core.history.get('core', 'b')).toBeDefined();
  });
});

describe("the person's side", () => {
  const ending = (core: NotifierCore, id: string) => {
    const record = core.history.get('core', id)!;
    return { dismissedAt: record.dismissedAt, actionUsed: record.actionUsed };
  };

  test('closing a banner dismisses it with actionUsed close; a banner that expired records timeout', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notify(note({ id: 'closed' }));
    await core.notify(note({ id: 'expired', timeout: 5 }));
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
    await core.notify(note({ id: 'clicked', url: 'https://example.com' }));
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
    const core = await NotifierCore.open({ supportDir: folder, presenter: first, speech: null });
    for (let n = 1; n <= 9; n++) await core.notify(note({ id: `n${n}` }));
    await core.dismiss('core', 'n9');
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
    for (const id of ['a', 'b', 'c']) await core.notify(note({ id }));
    expect([...presenter.onScreen.values()].map((banner) => banner.key.id).sort()).toEqual(['b', 'c']);
    expect(core.banners.isOnScreen('core', 'a')).toBe(false);
  });
});

describe('keys', () => {
  test('banners of different apps with the same id are different banners', async () => {
    const presenter = new TestPresenter();
    const { core } = await openCore(presenter);
    await core.notify(note({ app: 'a', id: 'x' }));
    await core.notify(note({ app: 'b', id: 'x' }));
    await core.dismissAll({ app: 'a' });
    const keys: BannerKey[] = [...presenter.onScreen.values()].map((banner) => banner.key);
    expect(keys).toEqual([{ app: 'b', id: 'x' }]);
  });
});
