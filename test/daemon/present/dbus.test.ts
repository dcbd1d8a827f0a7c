import childProcess from 'node:child_process';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import dbus from 'dbus-next';
import { sessionBus } from '../../../daemon/integrations/dbus-bus.js';
import { log } from '../../../daemon/log.js';
import { DBusPresenter } from '../../../daemon/present/dbus.js';
import type { Banner, PresenterEvent } from '../../../daemon/present/presenter.js';
import { sampleBanner } from '../../helpers/banners.js';
import { eventually } from '../../helpers/in-process.js';
import { startFakeNotificationServer, startSessionBus } from '../../../rigs/session-bus.js';

// The D-Bus presenter against a fake notification server on a private session bus.

log.setQuiet(true);

/** The sample banner with markup characters in its body (the server reads body markup). */
const banner = (overrides: Partial<Banner> = {}): Banner => sampleBanner({ body: 'All <b>412</b> tests & more', ...overrides });
/** A body with Markdown blocks as agents write them (docs/api/notifications.md#n46). */
const MARKDOWN_BLOCKS = '# Deploy\n- `api` & <web>\n- db\n```sh\nnpm test\n```\n> all *green*\n---\ndone';

describe('the D-Bus presenter', () => {
  let bus: Awaited<ReturnType<typeof startSessionBus>>;
  let server: Awaited<ReturnType<typeof startFakeNotificationServer>>;
  let presenter: DBusPresenter;
  const events: PresenterEvent[] = [];

  beforeAll(async () => {
    bus = await startSessionBus();
    server = await startFakeNotificationServer(bus.address);
    const connected = await DBusPresenter.connect(bus.address);
    if (!('presenter' in connected)) throw new Error(connected.reason);
    presenter = connected.presenter;
    await presenter.start((event) => events.push(event));
  });

  afterAll(async () => {
    await presenter?.stop();
    await server?.stop();
    await bus?.stop();
  });

  test('Notify carries the banner: actions with a default one for a click on its link, urgency, image, expiry, escaped markup', async () => {
    await presenter.show(
      banner({
        imagePath: '/tmp/pic.png',
        priority: 'urgent',
        expireSeconds: 12,
        group: 'builds',
        snooze: true,
        url: 'https://ci.example/1',
      }),
    );
    const call = server.calls.at(-1)!;
    expect(call).toMatchObject({
      appName: 'CI',
      replacesId: 0,
      summary: 'Build passed',
      body: 'main\nAll &lt;b&gt;412&lt;/b&gt; tests &amp; more',
      actions: [
        'default',
        'Open link',
        'open-log',
        'Open log',
        'approve',
        'Approve',
        'snooze:15',
        'Snooze 15 min',
        'snooze:60',
        'Snooze 1 hour',
      ],
      timeout: 12_000,
    });
    expect(call.hints).toMatchObject({ urgency: 2, 'image-path': '/tmp/pic.png', 'suppress-sound': true, 'x-notifier-group': 'builds' });
  });

  test('a reused id replaces the banner in place (replaces_id), a persistent one never expires', async () => {
    const first = server.calls.length;
    await presenter.show(banner({ key: { app: 'ci', id: 'same' } }));
    await presenter.replace(banner({ key: { app: 'ci', id: 'same' }, title: 'Build failed' }));
    const [shown, replaced] = server.calls.slice(first);
    expect(shown!.replacesId).toBe(0);
    expect(replaced!.replacesId).toBeGreaterThan(0);
    expect(replaced!.summary).toBe('Build failed');
    expect(replaced!.timeout).toBe(0);
  });

  test("the body's Markdown is body markup; progress, the stack's count and a problem are lines of the body", async () => {
    await presenter.show(
      banner({
        key: { app: 'ci', id: 'md' },
        body: '**Done** — [log](https://ci.example/1) <i>',
        progress: 40,
        more: 3,
        problem: 'Retry did not work: HTTP 500',
      }),
    );
    const call = server.calls.at(-1)!;
    // The fake server advertises body-markup but not body-hyperlinks, and is not known to draw `value`.
    expect(call.body).toBe('main\n<b>Done</b> — log &lt;i&gt;\n40 %\n+3 more\n⚠ Retry did not work: HTTP 500');
    expect(call.hints.value).toBe(40);
  });

  test("the body's blocks without their marks: a heading in bold, items after bullets, code as text, no quote mark or rule", async () => {
    await presenter.show(banner({ key: { app: 'ci', id: 'blocks' }, body: MARKDOWN_BLOCKS }));
    expect(server.calls.at(-1)!.body).toBe('main\n<b>Deploy</b>\n• api &amp; &lt;web&gt;\n• db\nnpm test\nall <i>green</i>\n\ndone');
  });

  test('a banner drawn in place of another takes its slot (replaces_id) and its place in the bookkeeping', async () => {
    await presenter.show(banner({ key: { app: 'ci', id: 'old' } }));
    const slot = server.calls.at(-1)!.id;
    await presenter.replace(banner({ key: { app: 'ci', id: 'new' }, replaces: { app: 'ci', id: 'old' }, title: 'Newest' }));
    expect(server.calls.at(-1)).toMatchObject({ replacesId: slot, summary: 'Newest' });
    await presenter.close({ app: 'ci', id: 'new' });
    expect(server.closed.at(-1)).toBe(slot);
  });

  test("close calls CloseNotification, and the close it causes is not reported as the person's", async () => {
    await presenter.show(banner({ key: { app: 'ci', id: 'gone' } }));
    const before = events.length;
    await presenter.close({ app: 'ci', id: 'gone' });
    expect(server.closed.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.slice(before)).toEqual([]);
  });

  test("the person's actions become events: click, button, snooze; the close after an action is not a dismissal", async () => {
    await presenter.show(banner({ key: { app: 'ci', id: 'acts' }, snooze: true }));
    const shownId = await lastId();
    const start = events.length;
    server.invoke(shownId, 'approve');
    server.close(shownId, 2); // dunst closes a banner after an action
    await eventually(() => events.length > start);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.slice(start)).toEqual([{ type: 'button', key: { app: 'ci', id: 'acts' }, actionId: 'approve' }]);

    await presenter.show(banner({ key: { app: 'ci', id: 'clicky' }, snooze: true }));
    const clickId = await lastId();
    server.invoke(clickId, 'default');
    await presenter.show(banner({ key: { app: 'ci', id: 'later' }, snooze: true }));
    server.invoke(await lastId(), 'snooze:60');
    await eventually(() => events.length >= start + 3);
    expect(events.slice(start + 1)).toEqual([
      { type: 'clicked', key: { app: 'ci', id: 'clicky' } },
      { type: 'snoozed', key: { app: 'ci', id: 'later' }, minutes: 60 },
    ]);
  });

  test('a reply button without a reply window program: the failure is an event, so the person is told', async () => {
    await presenter.show(banner({ key: { app: 'ci', id: 'ask' }, actions: [{ actionId: 'answer', label: 'Answer', kind: 'reply' }] }));
    const start = events.length;
    // This computer has zenity; the presenter is told none of the three is installed. (A test's process.env is not
    // the one child processes get under jest, so PATH cannot hide them.)
    const which = jest
      .spyOn(childProcess, 'spawnSync')
      .mockImplementation(() => ({ status: 1 }) as ReturnType<typeof childProcess.spawnSync>);
    try {
      server.invoke(await lastId(), 'answer');
      await eventually(() => events.length > start);
    } finally {
      which.mockRestore();
    }
    expect(events.slice(start)).toEqual([
      {
        type: 'failed',
        key: { app: 'ci', id: 'ask' },
        label: 'Answer',
        reason: 'no reply window program is installed (zenity, yad or kdialog)',
      },
    ]);
  });

  test("the server's closes become events: expired and dismissed", async () => {
    await presenter.show(banner({ key: { app: 'ci', id: 'expires' } }));
    const expiring = await lastId();
    await presenter.show(banner({ key: { app: 'ci', id: 'dismissed' } }));
    const dismissed = await lastId();
    const start = events.length;
    server.close(expiring, 1);
    server.close(dismissed, 2);
    await eventually(() => events.length >= start + 2);
    expect(events.slice(start)).toEqual([
      { type: 'closed', key: { app: 'ci', id: 'expires' }, reason: 'expired' },
      { type: 'closed', key: { app: 'ci', id: 'dismissed' }, reason: 'dismissed' },
    ]);
  });

  test("a question has Allow and Deny; the person's choice is an answer", async () => {
    presenter.ask({
      id: 'q-1',
      app: 'ci',
      kind: 'commands',
      text: 'Let CI run commands, scripts and shortcuts?',
      detail: 'command: make deploy',
    });
    await eventually(() => server.calls.at(-1)?.summary === 'Let CI run commands, scripts and shortcuts?');
    const call = server.calls.at(-1)!;
    expect(call).toMatchObject({
      appName: 'Notifier',
      body: 'command: make deploy',
      actions: ['allow', 'Allow', 'deny', 'Deny'],
      timeout: 0,
    });
    const start = events.length;
    server.invoke(await lastId(), 'allow');
    await eventually(() => events.length > start);
    expect(events.at(-1)).toEqual({ type: 'answered', questionId: 'q-1', allow: true });
  });

  test('a question asked again replaces its banner; one withdrawn at once still closes', async () => {
    const question = { id: 'cr-1', app: 'notifier', kind: 'connector', text: 'Let Claude send you notifications?', detail: 'code 1' };
    presenter.ask(question);
    presenter.ask({ ...question, detail: 'code 2' }); // before the server answered the first
    await eventually(() => server.calls.filter((call) => call.summary === question.text).length === 2, 'both calls');
    const [first, second] = server.calls.filter((call) => call.summary === question.text);
    expect([first!.replacesId, second!.replacesId, second!.id, second!.body]).toEqual([0, first!.id, first!.id, 'code 2']);
    presenter.ask({ ...question, id: 'cr-2' });
    presenter.withdraw('cr-2'); // resolved before its banner was even up
    await eventually(() => server.calls.some((call) => call.summary === question.text && call.id !== first!.id), 'the second banner');
    const other = server.calls.find((call) => call.summary === question.text && call.id !== first!.id)!;
    await eventually(() => server.closed.includes(other.id), 'the withdrawn banner to close');
    presenter.withdraw('cr-1');
    await eventually(() => server.closed.includes(first!.id), 'the first banner to close');
  });

  test('signals from any other program on the bus are ignored: only the server can report what the person did', async () => {
    await presenter.show(banner({ key: { app: 'ci', id: 'target' } }));
    const targetId = await lastId();
    const intruder = sessionBus(bus.address);
    class Forger extends dbus.interface.Interface {
      ActionInvoked(id: number, action: string): unknown[] {
        return [id, action];
      }
    }
    Forger.configureMembers({ signals: { ActionInvoked: { signature: 'us' } } });
    const forger = new Forger('org.freedesktop.Notifications');
    intruder.export('/org/freedesktop/Notifications', forger);
    const start = events.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    forger.ActionInvoked(targetId, 'approve');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.slice(start)).toEqual([]);
    intruder.disconnect();
  });

  /** The server's id for the banner shown last. */
  async function lastId(): Promise<number> {
    return server.calls.at(-1)!.id;
  }
});

type FakeServer = Awaited<ReturnType<typeof startFakeNotificationServer>>;

/** A presenter on a fake server with these capabilities, on a bus of its own, for `use`; all stopped afterwards. */
async function withServer(capabilities: string[], use: (presenter: DBusPresenter, server: FakeServer) => Promise<void>): Promise<void> {
  const bus = await startSessionBus();
  const server = await startFakeNotificationServer(bus.address, capabilities);
  const connected = await DBusPresenter.connect(bus.address);
  if (!('presenter' in connected)) throw new Error(connected.reason);
  try {
    await use(connected.presenter, server);
  } finally {
    await connected.presenter.stop();
    await server.stop();
    await bus.stop();
  }
}

describe('finding a notification server', () => {
  test('a bus without one gives the reason, and no presenter', async () => {
    const bus = await startSessionBus();
    try {
      expect(await DBusPresenter.connect(bus.address)).toEqual({ reason: 'no notification server on the session bus' });
    } finally {
      await bus.stop();
    }
  });

  test('no bus at all gives the reason', async () => {
    const result = await DBusPresenter.connect('unix:path=/nonexistent/bus');
    expect('reason' in result).toBe(true);
  });

  test("with inline-reply, a reply button is the server's own reply field and its text is the reply", async () => {
    await withServer(['actions', 'body', 'inline-reply'], async (presenter, server) => {
      const events: PresenterEvent[] = [];
      await presenter.start((event) => events.push(event));
      await presenter.show(banner({ actions: [{ actionId: 'answer', label: 'Answer', kind: 'reply', placeholder: 'Why?' }] }));
      const call = server.calls.at(-1)!;
      expect(call.actions).toEqual(['inline-reply', 'Answer']); // no link: no click action
      expect(call.hints['x-kde-reply-placeholder-text']).toBe('Why?');
      server.replyInline(call.id, 'Because.');
      await eventually(() => events.length > 0);
      expect(events).toEqual([{ type: 'replied', key: { app: 'ci', id: 'b1' }, actionId: 'answer', text: 'Because.' }]);
    });
  });

  test('without body-markup, the body is plain text (link labels, no marks), its <, > and & still escaped', async () => {
    await withServer(['actions', 'body'], async (presenter, server) => {
      await presenter.show(banner({ body: '**Acme** [Join](https://meet.example) & <b>' }));
      expect(server.calls.at(-1)!.body).toBe('main\nAcme Join &amp; &lt;b&gt;');
    });
  });

  test("without body-markup, the body's blocks are plain text without their marks", async () => {
    await withServer(['actions', 'body'], async (presenter, server) => {
      await presenter.show(banner({ body: MARKDOWN_BLOCKS }));
      expect(server.calls.at(-1)!.body).toBe('main\nDeploy\n• api &amp; &lt;web&gt;\n• db\nnpm test\nall green\n\ndone');
    });
  });

  test('without the actions capability, buttons are listed in the body', async () => {
    await withServer(['body'], async (presenter, server) => {
      await presenter.show(banner({ body: 'plain <b>text</b>' }));
      expect(server.calls.at(-1)).toMatchObject({ actions: [], body: 'main\nplain &lt;b&gt;text&lt;/b&gt;\n[Open log] [Approve]' });
    });
  });
});
