import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { log } from '../../../daemon/log.js';
import { type NodeNotifierCallback, type NodeNotifierOptions, NodeNotifierPresenter } from '../../../daemon/present/node-notifier.js';
import type { PresenterEvent, Question } from '../../../daemon/present/presenter.js';
import { sampleBanner } from '../../helpers/banners.js';

// The node-notifier presenter against a fake notifier: it records every notify() call, and the test ends a
// notification the way node-notifier 10.0.1 would, by running node-notifier's own callback decorator
// (lib/utils.js actionJackerDecorator) on terminal-notifier's JSON (macOS) or SnoreToast's pipe message (Windows).

// node-notifier's helpers (CommonJS, no types): the same functions its notifiers use.
interface NodeNotifierUtils {
  actionJackerDecorator(
    emitter: EventEmitter,
    options: object,
    fn: NodeNotifierCallback,
    mapper: (data: string) => string | false,
  ): (err: unknown, data: unknown) => void;
  mapToMac(options: object): Record<string, unknown>;
  mapToWin8(options: object): Record<string, unknown>;
  constructArgumentList(options: object, extra?: object): string[];
}
const utils = require('node-notifier/lib/utils') as NodeNotifierUtils;

class FakeNotifier extends EventEmitter {
  readonly calls: Array<{ options: NodeNotifierOptions; callback: NodeNotifierCallback }> = [];
  failWith: Error | null = null;

  notify(options: NodeNotifierOptions, callback: NodeNotifierCallback): this {
    if (this.failWith) throw this.failWith;
    this.calls.push({ options: structuredClone(options), callback });
    return this;
  }

  get options(): NodeNotifierOptions[] {
    return this.calls.map((call) => call.options);
  }

  /** terminal-notifier printed this JSON and exited (notifiers/notificationcenter.js). */
  endMac(index: number, json: Record<string, string>, error: unknown = null): void {
    const call = this.calls[index]!;
    const stamped = { ...json, deliveredAt: '2025-05-01 10:00:00 +0000', activationAt: '2025-05-01 10:00:07 +0000' };
    utils.actionJackerDecorator(this, call.options, call.callback, macMapper)(error, stamped);
  }

  /** terminal-notifier's output node-notifier could not parse: it hands over the text (fileCommandJson). */
  endMacUnparsed(index: number, stdout: string, error: unknown): void {
    const call = this.calls[index]!;
    utils.actionJackerDecorator(this, call.options, call.callback, macMapper)(error, stdout);
  }

  /**
   * SnoreToast wrote this to node-notifier's pipe and exited: the message goes the way of lib/utils.js
   * createNamedPipe (UTF-16 bytes read as UTF-8 text into a 1024-byte buffer) and notifiers/toaster.js
   * snoreToastResultParser (that buffer read as UTF-16, split at ';' and '=').
   */
  endWindows(index: number, pipe: string, exitError: { code: number } | null = null): void {
    const call = this.calls[index]!;
    const buffer = Buffer.alloc(1024);
    buffer.write(Buffer.from(pipe, 'utf16le').toString());
    const result: Record<string, string> = {};
    for (const part of (pipe ? buffer.toString('utf16le') : '').split(';')) {
      const pair = part.split('=');
      if (pair.length === 2) result[pair[0]!] = pair[1]!;
    }
    if (result.action === 'buttonClicked' && result.button) result.activationType = result.button;
    else if (result.action) result.activationType = result.action;
    const jacked = utils.actionJackerDecorator(this, call.options, call.callback, (data) =>
      data === 'activate' ? 'click' : data || false,
    );
    if (exitError && exitError.code === -1) jacked(exitError, result); // node-notifier calls back twice then
    jacked(null, result);
  }
}

function macMapper(data: string): string | false {
  return data === 'activate' ? 'click' : data === 'timeout' ? 'timeout' : data === 'replied' ? 'replied' : false;
}

const pipeOf = (fields: Record<string, string>): string =>
  Object.entries({ ...fields, notificationId: '7', pipe: '\\\\.\\pipe\\notifierPipe-1', application: '' })
    .map(([key, value]) => `${key}=${value};`)
    .join('');
const winPipe = (action: string, extra: Record<string, string> = {}): string => pipeOf({ action, ...extra });

const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);
const GROUP = `notifier.${sha('ci\u0000b1')}`;

const banner = sampleBanner;

const question: Question = { id: 'q1', app: 'backup', kind: 'command', text: 'Let backup run commands?', detail: 'rsync -a ~ /mnt' };

async function setUp(platform: NodeJS.Platform, extra: { windowsAppId?: string } = {}) {
  const fake = new FakeNotifier();
  const presenter = new NodeNotifierPresenter({ notifier: fake, platform, firstToastId: 40, ...extra });
  const events: PresenterEvent[] = [];
  await presenter.start((event) => events.push(event));
  return { fake, presenter, events };
}

/**
 * Each case in turn: a new snoozable banner, ended by `end` with the case's answer from the notifier, gives the
 * case's event (null: none).
 */
async function expectEndings<Answer>(
  { presenter, events }: { presenter: NodeNotifierPresenter; events: PresenterEvent[] },
  cases: Array<[Answer, PresenterEvent | null]>,
  end: (index: number, answer: Answer) => void,
): Promise<void> {
  for (const [index, [answer, expected]] of cases.entries()) {
    await presenter.show(banner({ snooze: true }));
    events.length = 0;
    end(index, answer);
    expect(events).toEqual(expected ? [expected] : []);
  }
}

let warn: ReturnType<typeof jest.spyOn>;
beforeEach(() => {
  warn = jest.spyOn(log, 'warn').mockImplementation(() => undefined);
  jest.spyOn(log, 'info').mockImplementation(() => undefined);
});
afterEach(() => {
  jest.restoreAllMocks();
});

describe('the node-notifier presenter on macOS (terminal-notifier)', () => {
  test('a banner becomes one notify call: subtitle, image, sound name, timeout, group, actions as a menu', async () => {
    const { fake, presenter } = await setUp('darwin');
    expect(presenter.name).toBe('node-notifier');
    expect(presenter.handlesExpiry).toBe(true);
    await presenter.show(banner({ imagePath: '/tmp/pic.png', expireSeconds: 12.4, sound: 'default', snooze: true }));
    expect(fake.options).toEqual([
      {
        title: 'Build passed',
        subtitle: 'main',
        message: 'All 412 tests',
        sound: 'Glass',
        contentImage: '/tmp/pic.png',
        group: GROUP,
        timeout: 12,
        wait: true,
        actions: 'Open log,Approve,Snooze 15 min,Snooze 1 hour',
        dropdownLabel: 'Actions',
        closeLabel: 'Close',
      },
    ]);
  });

  test('a persistent banner waits with no time limit; no body, no sound, one action, a comma in a label', async () => {
    const { fake, presenter } = await setUp('darwin');
    await presenter.show(
      banner({ subtitle: undefined, body: undefined, actions: [{ actionId: 'later', label: 'Later, maybe', kind: 'callback' }] }),
    );
    expect(fake.options).toEqual([
      { title: 'Build passed', message: ' ', sound: false, group: GROUP, timeout: '0', wait: true, actions: 'Later\u201a maybe' },
    ]);
    // What node-notifier itself makes of it: '0' survives (a 0 or false would become 5 or 10 seconds) and the
    // actions arrive as one quoted string terminal-notifier splits at commas.
    const args = utils.constructArgumentList(utils.mapToMac(structuredClone(fake.options[0]!)));
    expect(args).toEqual([
      '-title',
      '"Build passed"',
      '-message',
      '" "',
      '-group',
      `"${GROUP}"`,
      '-timeout',
      '"0"',
      '-actions',
      '"Later\u201a maybe"',
      '-json',
      '"true"',
    ]);
    expect(utils.mapToMac({ message: 'x', wait: true, timeout: false }).timeout).toBe(5);
  });

  test('sounds: system names are kept, files and unknown Windows names become Glass, other names pass', async () => {
    const { fake, presenter } = await setUp('darwin');
    for (const sound of ['ping', 'Submarine', '/home/me/ding.wav', 'Notification.Mail', 'MyChime'])
      await presenter.show(banner({ sound, actions: [] }));
    expect(fake.options.map((options) => options.sound)).toEqual(['Ping', 'Submarine', 'Glass', 'Glass', 'MyChime']);
  });

  test('a lone reply action gets the reply field, with its placeholder', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    await presenter.show(
      banner({ actions: [{ actionId: 'answer', label: 'Reply', kind: 'reply', placeholder: 'Your answer' }], expireSeconds: 30 }),
    );
    expect(fake.options[0]).toEqual({
      title: 'Build passed',
      subtitle: 'main',
      message: 'All 412 tests',
      sound: false,
      group: GROUP,
      timeout: 30,
      wait: true,
      reply: 'Your answer',
    });
    fake.endMac(0, { activationType: 'replied', activationValue: 'on my way' });
    expect(events).toEqual([{ type: 'replied', key: { app: 'ci', id: 'b1' }, actionId: 'answer', text: 'on my way' }]);
  });

  test("terminal-notifier's activation types become the core's events", async () => {
    const { fake, presenter, events } = await setUp('darwin');
    const key = { app: 'ci', id: 'b1' };
    const cases: Array<[Record<string, string>, PresenterEvent | null]> = [
      [{ activationType: 'contentsClicked' }, { type: 'clicked', key }],
      [
        { activationType: 'actionClicked', activationValue: 'Approve', activationValueIndex: '1' },
        { type: 'button', key, actionId: 'approve' },
      ],
      [
        { activationType: 'actionClicked', activationValue: 'Snooze 1 hour', activationValueIndex: '3' },
        { type: 'snoozed', key, minutes: 60 },
      ],
      [{ activationType: 'timeout' }, { type: 'closed', key, reason: 'expired' }],
      [
        { activationType: 'closed', activationValue: 'Close' },
        { type: 'closed', key, reason: 'dismissed' },
      ],
      [
        { activationType: 'actionClicked', activationValue: 'Show' },
        { type: 'clicked', key },
      ], // the notification's own button
      [{ activationType: 'none' }, null],
    ];
    await expectEndings({ presenter, events }, cases, (index, json) => fake.endMac(index, json));
  });

  test('one action without an index is found by its label', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    await presenter.show(banner({ actions: [{ actionId: 'open-log', label: 'Open log', kind: 'url' }] }));
    fake.endMac(0, { activationType: 'actionClicked', activationValue: 'Open log' });
    expect(events).toEqual([{ type: 'button', key: { app: 'ci', id: 'b1' }, actionId: 'open-log' }]);
  });

  test('a reply button next to others brings up the reply field, and its text comes back as replied', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    const actions = [
      { actionId: 'answer', label: 'Reply', kind: 'reply' as const, placeholder: 'Say something' },
      { actionId: 'approve', label: 'Approve', kind: 'callback' as const },
    ];
    await presenter.show(banner({ actions, expireSeconds: 20 }));
    expect(fake.options[0]).toMatchObject({ actions: 'Reply,Approve', timeout: 20 });
    expect(fake.options[0]).not.toHaveProperty('reply');
    fake.endMac(0, { activationType: 'actionClicked', activationValue: 'Reply', activationValueIndex: '0' });
    expect(events).toEqual([]);
    expect(fake.options[1]).toEqual({
      title: 'Build passed',
      subtitle: 'Reply',
      message: 'All 412 tests',
      sound: false,
      group: GROUP,
      timeout: '0',
      wait: true,
      reply: 'Say something',
    });
    fake.endMac(1, { activationType: 'replied', activationValue: 'looks good' });
    expect(events).toEqual([{ type: 'replied', key: { app: 'ci', id: 'b1' }, actionId: 'answer', text: 'looks good' }]);
  });

  test('replace sends a new notification with the same group; the old one reporting its removal is ignored', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    await presenter.show(banner());
    await presenter.replace(banner({ title: 'Build fixed', actions: [] }));
    expect(fake.options).toHaveLength(2);
    expect(fake.options[1]).toEqual({
      title: 'Build fixed',
      subtitle: 'main',
      message: 'All 412 tests',
      sound: false,
      group: GROUP,
      timeout: '0',
      wait: true,
    });
    fake.endMac(0, { activationType: 'closed', activationValue: 'Close' }); // terminal-notifier removed it for the new one
    expect(events).toEqual([]);
    fake.endMac(1, { activationType: 'contentsClicked' });
    fake.endMac(1, { activationType: 'contentsClicked' }); // reported once only
    expect(events).toEqual([{ type: 'clicked', key: { app: 'ci', id: 'b1' } }]);
  });

  test('close removes the group, even for a banner this run never showed; nothing is reported afterwards', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    await presenter.show(banner());
    await presenter.close({ app: 'ci', id: 'b1' });
    await expect(presenter.close({ app: 'other', id: 'x' })).resolves.toBeUndefined();
    expect(fake.options.slice(1)).toEqual([{ remove: GROUP }, { remove: `notifier.${sha('other\u0000x')}` }]);
    fake.endMac(0, { activationType: 'closed', activationValue: 'Close' });
    fake.endMac(1, {}); // `-remove` prints nothing: node-notifier calls back with {}
    expect(events).toEqual([]);
  });

  test('output node-notifier could not parse still tells a timeout, and the error is logged', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    await presenter.show(banner({ expireSeconds: 5 }));
    fake.endMacUnparsed(
      0,
      '{\n  "activationType" : "timeout"\n}{\n  "activationType" : "closed"\n}',
      new SyntaxError('Unexpected token { in JSON'),
    );
    expect(events).toEqual([{ type: 'closed', key: { app: 'ci', id: 'b1' }, reason: 'expired' }]);
    expect(warn).toHaveBeenCalledWith('node-notifier could not show banner [ci] b1: Unexpected token { in JSON');
  });

  test('a question is a notification from Notifier with Allow and Deny; the choice is the answer', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    presenter.ask(question);
    expect(fake.options[0]).toEqual({
      title: 'Notifier',
      message: 'Let backup run commands?\nrsync -a ~ /mnt',
      sound: 'Glass',
      group: `notifier.question.${sha('q1')}`,
      timeout: '0',
      wait: true,
      actions: 'Allow,Deny',
      dropdownLabel: 'Answer',
      closeLabel: 'Close',
    });
    fake.endMac(0, { activationType: 'actionClicked', activationValue: 'Allow', activationValueIndex: '0' });
    expect(events).toEqual([{ type: 'answered', questionId: 'q1', allow: true }]);

    presenter.ask({ ...question, id: 'q2', detail: undefined });
    fake.endMac(1, { activationType: 'closed', activationValue: 'Close' });
    presenter.ask({ ...question, id: 'q3' });
    fake.endMac(2, { activationType: 'contentsClicked' });
    expect(events).toHaveLength(1); // closed or clicked without a choice: no answer

    presenter.ask({ ...question, id: 'q4' });
    presenter.withdraw('q4');
    expect(fake.options.at(-1)).toEqual({ remove: `notifier.question.${sha('q4')}` });
    fake.endMac(3, { activationType: 'actionClicked', activationValue: 'Deny', activationValueIndex: '1' });
    expect(events).toHaveLength(1);
  });
});

describe('the node-notifier presenter on Windows (SnoreToast)', () => {
  test('a banner becomes one toast: subtitle in the body, icon, sound, id, buttons without reply, no timeout', async () => {
    const { fake, presenter } = await setUp('win32');
    expect(presenter.handlesExpiry).toBe(false);
    const actions = [
      { actionId: 'open-log', label: 'Open log', kind: 'url' as const },
      { actionId: 'answer', label: 'Reply', kind: 'reply' as const },
      { actionId: 'pick', label: 'a;b=c', kind: 'callback' as const },
    ];
    await presenter.show(banner({ actions, imagePath: 'C:\\pics\\a.png', sound: 'default', expireSeconds: 12, snooze: true }));
    expect(fake.options).toEqual([
      {
        title: 'Build passed',
        message: 'main\nAll 412 tests',
        sound: 'Notification.Default',
        icon: 'C:\\pics\\a.png',
        id: 40,
        wait: true,
        actions: ['Open log', 'a,b-c', 'Snooze 15 min', 'Snooze 1 hour'],
      },
    ]);
    // What node-notifier hands SnoreToast.
    expect(utils.mapToWin8(structuredClone(fake.options[0]!))).toEqual({
      t: 'Build passed',
      m: 'main\nAll 412 tests',
      s: 'Notification.Default',
      p: 'C:\\pics\\a.png',
      id: 40,
      b: 'Open log;a,b-c;Snooze 15 min;Snooze 1 hour',
    });
  });

  test('no body, no sound, a Notification.* sound, at most five buttons, a registered app id', async () => {
    const { fake, presenter } = await setUp('win32', { windowsAppId: 'Notifier.Desktop' });
    const many = ['1', '2', '3', '4', '5', '6'].map((n) => ({ actionId: `a${n}`, label: `B${n}`, kind: 'callback' as const }));
    await presenter.show(banner({ subtitle: undefined, body: undefined, actions: [], sound: null }));
    await presenter.show(banner({ key: { app: 'ci', id: 'b2' }, actions: many, sound: 'Notification.Mail' }));
    expect(fake.options).toEqual([
      { title: 'Build passed', message: ' ', sound: false, id: 40, wait: true, appID: 'Notifier.Desktop' },
      {
        title: 'Build passed',
        message: 'main\nAll 412 tests',
        sound: 'Notification.Mail',
        id: 41,
        wait: true,
        actions: ['B1', 'B2', 'B3', 'B4', 'B5'],
        appID: 'Notifier.Desktop',
      },
    ]);
  });

  test("SnoreToast's actions become the core's events", async () => {
    const { fake, presenter, events } = await setUp('win32');
    const key = { app: 'ci', id: 'b1' };
    const cases: Array<[string, PresenterEvent | null]> = [
      [winPipe('clicked'), { type: 'clicked', key }],
      [winPipe('buttonClicked', { button: 'Approve' }), { type: 'button', key, actionId: 'approve' }],
      [winPipe('buttonClicked', { button: 'Snooze 15 min' }), { type: 'snoozed', key, minutes: 15 }],
      [winPipe('timedout'), { type: 'closed', key, reason: 'expired' }],
      [winPipe('dismissed'), { type: 'closed', key, reason: 'dismissed' }],
      [winPipe('hidden'), { type: 'closed', key, reason: 'dismissed' }],
      [winPipe('textEntered'), null],
    ];
    await expectEndings({ presenter, events }, cases, (index, pipe) => fake.endWindows(index, pipe));
  });

  test('a button with a non-ASCII label is still found, though node-notifier garbles it on the way back', async () => {
    const { fake, presenter, events } = await setUp('win32');
    const actions = [
      { actionId: 'open', label: 'Öffnen', kind: 'url' as const },
      { actionId: 'yes', label: '👍 Ja', kind: 'callback' as const },
      { actionId: 'pick', label: 'a;b=c', kind: 'callback' as const },
    ];
    for (const [index, label] of ['👍 Ja', 'Öffnen', 'a,b-c'].entries()) {
      await presenter.show(banner({ actions }));
      fake.endWindows(index, winPipe('buttonClicked', { button: label }));
    }
    const key = { app: 'ci', id: 'b1' };
    expect(events).toEqual([
      { type: 'button', key, actionId: 'yes' },
      { type: 'button', key, actionId: 'open' },
      { type: 'button', key, actionId: 'pick' },
    ]);
  });

  test('replace closes the old toast by its id and shows a new one; the old one reporting hidden is ignored', async () => {
    const { fake, presenter, events } = await setUp('win32');
    await presenter.show(banner({ actions: [] }));
    await presenter.replace(banner({ title: 'Build fixed', actions: [] }));
    expect(fake.options).toEqual([
      { title: 'Build passed', message: 'main\nAll 412 tests', sound: false, id: 40, wait: true },
      { close: 40 },
      { title: 'Build fixed', message: 'main\nAll 412 tests', sound: false, id: 41, wait: true },
    ]);
    fake.endWindows(0, winPipe('hidden'));
    fake.endWindows(1, '');
    expect(events).toEqual([]);
    fake.endWindows(2, winPipe('buttonClicked', { button: 'Nope' })); // not one of its buttons: a click
    expect(events).toEqual([{ type: 'clicked', key: { app: 'ci', id: 'b1' } }]);
  });

  test('close closes the toast by id; a banner that is not there is no call and no error', async () => {
    const { fake, presenter, events } = await setUp('win32');
    await presenter.show(banner());
    await presenter.close({ app: 'ci', id: 'b1' });
    await presenter.close({ app: 'ci', id: 'b1' });
    await expect(presenter.close({ app: 'ci', id: 'never' })).resolves.toBeUndefined();
    expect(fake.options.slice(1)).toEqual([{ close: 40 }]);
    fake.endWindows(0, winPipe('hidden'));
    expect(events).toEqual([]);
  });

  test('a question has Allow and Deny buttons; Deny is answered false; withdraw closes it', async () => {
    const { fake, presenter, events } = await setUp('win32');
    presenter.ask(question);
    expect(fake.options[0]).toEqual({
      title: 'Notifier',
      message: 'Let backup run commands?\nrsync -a ~ /mnt',
      sound: 'Notification.Default',
      id: 40,
      wait: true,
      actions: ['Allow', 'Deny'],
    });
    fake.endWindows(0, winPipe('buttonClicked', { button: 'Deny' }));
    expect(events).toEqual([{ type: 'answered', questionId: 'q1', allow: false }]);
    presenter.ask({ ...question, id: 'q2' });
    presenter.withdraw('q2');
    expect(fake.options.at(-1)).toEqual({ close: 41 });
    fake.endWindows(1, winPipe('buttonClicked', { button: 'Allow' }));
    expect(events).toHaveLength(1);
  });

  test('SnoreToast failing (exit -1) is logged; node-notifier calling back twice reports once at most', async () => {
    const { fake, presenter, events } = await setUp('win32');
    const failed = (): Error & { code: number } => Object.assign(new Error('Command failed: snoretoast-x64.exe'), { code: -1 });
    await presenter.show(banner());
    fake.endWindows(0, '', failed()); // nothing on the pipe: the toast never showed
    expect(events).toEqual([]);
    expect(warn).toHaveBeenCalledWith('node-notifier could not show banner [ci] b1: Command failed: snoretoast-x64.exe');
    await presenter.show(banner());
    fake.endWindows(1, winPipe('clicked'), failed());
    expect(events).toEqual([{ type: 'clicked', key: { app: 'ci', id: 'b1' } }]);
  });
});

describe('the node-notifier presenter elsewhere (notify-send)', () => {
  test('text, picture, lifetime in seconds (0 stays), urgency and its own desktop entry; no buttons, no expiry handling', async () => {
    const { fake, presenter } = await setUp('linux');
    expect(presenter.handlesExpiry).toBe(false);
    await presenter.show(banner({ imagePath: '/tmp/pic.png', priority: 'urgent' }));
    await presenter.show(banner({ expireSeconds: 8, priority: 'low', subtitle: undefined }));
    presenter.ask(question);
    await presenter.close({ app: 'ci', id: 'b1' });
    expect(fake.options).toEqual([
      {
        title: 'Build passed',
        message: 'main\nAll 412 tests',
        icon: '/tmp/pic.png',
        timeout: 0,
        urgency: 'critical',
        hint: 'string:desktop-entry:notifier',
      },
      { title: 'Build passed', message: 'All 412 tests', timeout: 8, urgency: 'low', hint: 'string:desktop-entry:notifier' },
      {
        title: 'Notifier',
        message: 'Let backup run commands?\nrsync -a ~ /mnt',
        timeout: 0,
        urgency: 'critical',
        hint: 'string:desktop-entry:notifier',
      },
    ]);
  });

  test('the default notifier is node-notifier’s own choice; constructing it shows nothing', () => {
    const presenter = new NodeNotifierPresenter({ platform: 'linux' });
    expect(presenter.handlesExpiry).toBe(false);
  });
});

describe("the body's Markdown on these banners", () => {
  test('each platform gets the body as text without its marks: items after bullets, code and headings as text', async () => {
    const body = '## Deploy **done**\n- `api`\n- [log](https://ci.example/1)\n```\nok\n```';
    const shown: Array<string | undefined> = [];
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const { fake, presenter } = await setUp(platform);
      await presenter.show(banner({ subtitle: undefined, body }));
      shown.push(fake.options.at(-1)!.message);
    }
    expect(shown).toEqual(Array(3).fill('Deploy done\n• api\n• log\nok'));
  });
});

describe('the node-notifier presenter never throws into the core', () => {
  test('notify throwing is logged: show, replace, close, ask and withdraw still return', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    fake.failWith = new Error('spawn terminal-notifier EACCES');
    await expect(presenter.show(banner())).resolves.toBeUndefined();
    await expect(presenter.replace(banner())).resolves.toBeUndefined();
    await expect(presenter.close({ app: 'ci', id: 'b1' })).resolves.toBeUndefined();
    expect(() => presenter.ask(question)).not.toThrow();
    expect(() => presenter.withdraw('q1')).not.toThrow();
    expect(events).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(5);
    expect(warn).toHaveBeenNthCalledWith(1, 'node-notifier could not show banner [ci] b1: spawn terminal-notifier EACCES');
    expect(warn).toHaveBeenNthCalledWith(3, 'node-notifier could not close banner [ci] b1: spawn terminal-notifier EACCES');
  });

  test('an error in the callback is logged and reports nothing; a string error (stderr) too', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    await presenter.show(banner());
    fake.endMac(0, {}, new Error('Command failed: terminal-notifier\n*** Terminating app'));
    await presenter.show(banner());
    fake.endMac(1, { activationType: 'contentsClicked' }, '2025-05-01 terminal-notifier[1:2] a warning\n');
    expect(events).toEqual([{ type: 'clicked', key: { app: 'ci', id: 'b1' } }]);
    expect(warn.mock.calls).toEqual([
      ['node-notifier could not show banner [ci] b1: Command failed: terminal-notifier'],
      ['node-notifier could not show banner [ci] b1: 2025-05-01 terminal-notifier[1:2] a warning'],
    ]);
  });

  test('a listener that throws is logged, not passed back to node-notifier', async () => {
    const fake = new FakeNotifier();
    const presenter = new NodeNotifierPresenter({ notifier: fake, platform: 'darwin' });
    await presenter.start(() => {
      throw new Error('core broke');
    });
    await presenter.show(banner());
    expect(() => fake.endMac(0, { activationType: 'contentsClicked' })).not.toThrow();
    expect(warn).toHaveBeenCalledWith('node-notifier presenter: handling clicked failed: core broke');
  });

  test('after stop, what the notifications report is ignored', async () => {
    const { fake, presenter, events } = await setUp('darwin');
    await presenter.show(banner());
    await presenter.stop();
    fake.endMac(0, { activationType: 'contentsClicked' });
    expect(events).toEqual([]);
  });

  test('open goes to the desktop opener, which rejects with its reason', async () => {
    const { presenter } = await setUp('darwin');
    await expect(presenter.open({ app: {} })).rejects.toThrow('no installed application found');
  });
});
