import { execFile } from 'node:child_process';
import { rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type DaemonProcess, startDaemon, tempFolder } from '../helpers/daemon.js';
import { type Desktop, replyWindow, startDesktop, typeInto, watchNotify } from '../helpers/desktop.js';
import { callbackServer, eventually } from '../helpers/in-process.js';

// What the person sees on a real desktop (Xvfb, a private session bus, dunst 1.9 with its shipped markup setting):
// the body's Markdown as body markup, a stack collapsed to one banner, a banner that closes once its reply is
// stored, and failures shown as banners (docs/desktop.md). What dunst got is read back from dunst itself
// (`dunstctl count`, `dunstctl history`).

interface DunstEntry {
  summary: string;
  body: string;
  appname: string;
}

describe('the banner on dunst', () => {
  let desktop: Desktop;
  let daemon: DaemonProcess;
  /** A daemon that finds no audio player and no program to open links with (a PATH without them). */
  let bare: DaemonProcess;
  /** A daemon whose audio player finds no sound server: paplay as it answers then. */
  let unheard: DaemonProcess;
  const folders: string[] = [];

  beforeAll(async () => {
    desktop = await startDesktop();
    const [supportDir, bareDir, unheardDir] = [await tempFolder(), await tempFolder(), await tempFolder()];
    const [bin, paplayBin] = [await tempFolder('notifier-bin-'), await tempFolder('notifier-bin-')];
    folders.push(supportDir, bareDir, unheardDir, bin, paplayBin);
    for (const program of ['which', 'sh', 'espeak-ng']) await symlink(await whereIs(program), path.join(bin, program));
    const paplay = '#!/bin/sh\necho "Connection failure: Connection refused" >&2\necho "pa_context_connect() failed." >&2\nexit 1\n';
    await writeFile(path.join(paplayBin, 'paplay'), paplay, { mode: 0o755 });
    const onDesktop = { presenter: 'dbus', tray: false } as const;
    [daemon, bare, unheard] = await Promise.all([
      startDaemon({ supportDir, env: desktop.env, ...onDesktop }),
      startDaemon({ supportDir: bareDir, env: { ...desktop.env, PATH: bin }, ...onDesktop }),
      startDaemon({ supportDir: unheardDir, env: { ...desktop.env, PATH: `${paplayBin}${path.delimiter}${bin}` }, ...onDesktop }),
    ]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([daemon?.stop(), bare?.stop(), unheard?.stop()]);
    await desktop?.stop();
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  const displayed = async () => Number(await desktop.dunstctl('count', 'displayed'));
  /** Closes every banner in dunst and returns what dunst got, newest first (its history keeps closed ones). */
  /** What dunst's history holds (the banners closed), newest first. */
  const readHistory = async (): Promise<DunstEntry[]> => {
    const history = JSON.parse(await desktop.dunstctl('history')) as { data: Array<Array<Record<string, { data: string }>>> };
    return history.data[0]!.map((entry) => ({ summary: entry.summary!.data, body: entry.body!.data, appname: entry.appname!.data }));
  };
  const closeAllAndRead = async (): Promise<DunstEntry[]> => {
    await desktop.dunstctl('close-all');
    return readHistory();
  };
  const record = async (from: DaemonProcess, app: string, id: string) =>
    (await from.api('GET', `/v1/history?app=${app}&limit=200`)).json.items.find((item: { id: string }) => item.id === id);

  test("the body's links, bold and italic reach dunst as body markup, and the sender's own markup as text", async () => {
    await desktop.dunstctl('close-all');
    await daemon.api('POST', '/v1/notify', {
      body: {
        app: 'meet',
        id: 'm1',
        title: 'Standup in 2 min',
        body: '**Acme** daily — [Join call](https://meet.example/abc) & <b>not markup</b> *soon* [x](javascript:alert(1))',
      },
    });
    await eventually(async () => (await displayed()) === 1, 'the banner');
    const [shown] = await closeAllAndRead();
    expect(shown).toMatchObject({ summary: 'Standup in 2 min', appname: 'meet' });
    expect(shown!.body).toBe(
      '<b>Acme</b> daily — <a href="https://meet.example/abc">Join call</a> &amp; &lt;b&gt;not markup&lt;/b&gt; <i>soon</i> x',
    );
  });

  test('a banner offers the click action (default) only when a click opens something: its url', async () => {
    const watch = await watchNotify(desktop);
    await desktop.dunstctl('close-all');
    await daemon.api('POST', '/v1/notify', {
      body: { app: 'plain', id: 'n', title: 'Nothing to open', buttons: [{ label: 'Open', url: 'https://ci.example/log' }] },
    });
    await daemon.api('POST', '/v1/notify', { body: { app: 'bare', id: 'b', title: 'Only words' } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'linked', id: 'l', title: 'With a link', url: 'https://docs.example/new' } });
    const link = 'https://docs.example/twice';
    await daemon.api('POST', '/v1/notify', {
      body: { app: 'linked', id: 't', title: 'Link and button', url: link, buttons: [{ label: 'Open link', url: link }] },
    });
    const sent = (title: string) => eventually(() => watch.sent.find((call) => call.summary === title), title);
    expect((await sent('Nothing to open')).actions).toEqual(['open', 'Open']);
    expect((await sent('Only words')).actions).toEqual([]);
    expect((await sent('With a link')).actions).toEqual(['default', 'Open link']);
    // dunst lists the click action as one more line of its menu: a button that opens the same link is enough there.
    expect((await sent('Link and button')).actions.filter((text) => text === 'default' || text === 'Open link')).toEqual(['Open link']);
    // dunst's menu lists the button once, and no click action beside it (nothing is chosen in it).
    await desktop.choose('no such line');
    expect((await desktop.lastMenu()).split('\n').filter((line) => line.includes('(Nothing to open)'))).toEqual([
      expect.stringMatching(/^#Open \(Nothing to open\) \[\d+,open\]$/),
    ]);
    watch.stop();
    await desktop.dunstctl('close-all');
  });

  test('a loop of 100 notifications leaves one banner of their stack on screen; GET /v1/stacks and History have all 100', async () => {
    await desktop.dunstctl('close-all');
    for (let n = 1; n <= 100; n++) await daemon.api('POST', '/v1/notify', { body: { app: 'loop', id: `l${n}`, title: `Loop ${n}` } });
    const stacks = (await daemon.api('GET', '/v1/stacks?app=loop')).json.stacks;
    expect(stacks).toHaveLength(1);
    expect(stacks[0]).toMatchObject({ level: 'bySender', count: 100 });
    await eventually(async () => (await displayed()) === 1, 'one banner');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await displayed()).toBe(1);
    expect((await daemon.api('GET', '/v1/history?app=loop&limit=200')).json.items).toHaveLength(100);
    const [shown] = await closeAllAndRead();
    expect(shown).toMatchObject({ summary: 'Loop 100', body: '+99 more' });
    // The person closed the stack's banner: every banner it stood for is closed.
    await eventually(async () => (await record(daemon, 'loop', 'l1')).actionUsed === 'close', 'the oldest closed too');
    expect((await daemon.api('GET', '/v1/stacks?app=loop')).json.stacks).toEqual([]);
  });

  test('a stacked banner always shows the newest text: speech shown instead (sounds muted) and then said again', async () => {
    await desktop.dunstctl('close-all');
    await daemon.api('PUT', '/v1/settings', { body: { muteAllSounds: true } });
    try {
      await daemon.api('POST', '/v1/speak', { body: { app: 'kitchen', id: 'oven', text: 'The oven is hot.' } });
      await daemon.api('POST', '/v1/speak', { body: { app: 'kitchen', id: 'kettle', text: 'The kettle is boiling.' } });
      await eventually(async () => (await displayed()) === 1, 'one banner for the stack');
      await daemon.api('POST', '/v1/speak', { body: { app: 'kitchen', id: 'kettle', text: 'The kettle has boiled.' } });
      expect((await record(daemon, 'kitchen', 'kettle')).speech).toMatchObject({ suppressed: 'muted' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [shown] = await closeAllAndRead();
      expect(shown).toMatchObject({ summary: 'The kettle has boiled.', body: '+1 more' });
    } finally {
      await daemon.api('PUT', '/v1/settings', { body: { muteAllSounds: false } });
    }
  });

  test('a banner with buttons is never pushed off by a passive one of its stack', async () => {
    await desktop.dunstctl('close-all');
    await daemon.api('POST', '/v1/notify', { body: { app: 'mixed', id: 'q', title: 'Approve?', buttons: [{ label: 'Yes' }] } });
    for (const id of ['p1', 'p2', 'p3']) await daemon.api('POST', '/v1/notify', { body: { app: 'mixed', id, title: `Passive ${id}` } });
    await eventually(async () => (await displayed()) === 2, 'the question and one passive banner');
    const shown = await closeAllAndRead();
    expect(shown.slice(0, 2).map((entry) => entry.summary)).toEqual(expect.arrayContaining(['Approve?', 'Passive p3']));
  });

  test('the banner closes once the reply is stored', async () => {
    await desktop.dunstctl('close-all');
    await daemon.api('POST', '/v1/notify', {
      body: { app: 'ask', id: 'r', title: 'Ship it today?', buttons: [{ label: 'Reply', reply: { placeholder: 'yes or no' } }] },
    });
    await eventually(async () => (await displayed()) === 1);
    await desktop.choose('Reply (Ship it today?)');
    const window = (await xdotool(desktop, 'search', '--sync', '--onlyvisible', '--name', 'ask')).split('\n')[0]!;
    await xdotool(desktop, 'windowfocus', '--sync', window);
    await xdotool(desktop, 'type', '--delay', '20', 'After lunch');
    await xdotool(desktop, 'key', 'Return');
    await eventually(async () => (await record(daemon, 'ask', 'r')).reply === 'After lunch', 'the reply', 15_000);
    await eventually(async () => (await record(daemon, 'ask', 'r')).actionUsed === 'Reply', 'History to say the banner closed');
    await eventually(async () => (await displayed()) === 0, 'the banner to close');
  }, 30_000);

  test('the reply window shows who asks and the whole notification: title, subtitle, body and the hint', async () => {
    await desktop.dunstctl('close-all');
    await daemon.api('POST', '/v1/register', { body: { app: 'deploys', appName: 'Deploy bot' } });
    await daemon.api('POST', '/v1/notify', {
      body: {
        app: 'deploys',
        id: 'w',
        title: 'Ship release_42 today?',
        subtitle: 'main, 3 changes',
        body: 'The build of **main** passed; see [the notes](https://ci.example/notes) in C:\\builds.',
        buttons: [{ label: 'Answer', reply: { placeholder: 'yes or no' } }],
      },
    });
    await eventually(async () => (await displayed()) === 1);
    await desktop.choose('Answer (Ship release_42 today?)');
    const window = await replyWindow(desktop, 'Deploy bot');
    expect(window.title).toBe('Reply to Deploy bot');
    expect(window.text.split('\n')).toEqual([
      'Deploy bot asks:',
      '',
      'Ship release_42 today?',
      'main, 3 changes',
      'The build of main passed; see the notes in C:\\builds.',
      '(yes or no)',
    ]);
    await typeInto(desktop, 'Deploy bot', 'Yes');
    await eventually(async () => (await record(daemon, 'deploys', 'w')).reply === 'Yes', 'the reply', 15_000);
  }, 30_000);

  test('a callback that fails shows the banner again with the reason; History keeps the note', async () => {
    const server = await callbackServer(() => 500);
    await desktop.dunstctl('close-all');
    await daemon.api('POST', '/v1/notify', {
      body: { app: 'deploys', id: 'd', title: 'Deploy?', buttons: [{ label: 'Approve', callback: { url: server.url('/approve') } }] },
    });
    await eventually(async () => (await displayed()) === 1);
    await desktop.choose('Approve (Deploy?)');
    await eventually(async () => (await record(daemon, 'deploys', 'd')).actionNote === 'Approve: HTTP 500', 'the note');
    await eventually(async () => (await displayed()) === 1, 'the banner with the reason');
    const [shown] = await closeAllAndRead();
    expect(shown).toMatchObject({ summary: 'Deploy?', body: '⚠ Approve did not work: HTTP 500' });
  });

  test('a link that cannot be opened shows a short banner saying so, in one plain sentence', async () => {
    await desktop.dunstctl('close-all');
    await bare.api('POST', '/v1/notify', { body: { app: 'docs', id: 'k', title: 'New docs', url: 'https://docs.example/new' } });
    await eventually(async () => (await displayed()) === 1);
    await desktop.dunstctl('action', '0');
    await eventually(async () => (await record(bare, 'docs', 'k')).actionNote?.startsWith('open: '), 'the note');
    expect((await record(bare, 'docs', 'k')).actionNote).toBe('open: xdg-open is not installed');
    // The clicked banner stays on screen until the daemon closes it, after the note: only then is the short one
    // drawn. One banner on screen is the short one once the clicked one is in dunst's history.
    await eventually(async () => (await readHistory()).some((entry) => entry.summary === 'New docs'), 'the clicked banner closed');
    await eventually(async () => (await displayed()) === 1, 'the short banner');
    const [shown] = await closeAllAndRead();
    expect(shown).toMatchObject({ summary: 'New docs', appname: 'docs', body: '⚠ Could not open the link: xdg-open is not installed' });
  });

  test('speech whose player finds no sound server shows a short banner that says so in plain words', async () => {
    await desktop.dunstctl('close-all');
    await unheard.api('POST', '/v1/speak', { body: { app: 'talk', id: 'u', text: 'The kettle has boiled.' } });
    await eventually(async () => (await displayed()) === 1, 'the short banner', 15_000);
    const [shown] = await closeAllAndRead();
    expect(shown).toMatchObject({
      summary: 'The kettle has boiled.',
      body: '⚠ Not spoken: no sound server is running (PulseAudio or PipeWire)',
    });
    expect(unheard.log()).toContain('Connection failure: Connection refused'); // paplay's own words: in the log only
  });

  test('speech that cannot play (no audio player) shows as a normal banner; GET /v1/voice says there is no player', async () => {
    expect((await bare.api('GET', '/v1/voice')).json).toMatchObject({ engineName: 'espeak-ng', audioPlayer: null });
    await desktop.dunstctl('close-all');
    await bare.api('POST', '/v1/speak', { body: { app: 'talk', id: 's', text: 'The kettle has boiled.' } });
    await eventually(async () => (await displayed()) === 1, 'the banner');
    expect((await record(bare, 'talk', 's')).speech).toMatchObject({ suppressed: 'unavailable' });
    const [shown] = await closeAllAndRead();
    expect(shown).toMatchObject({ summary: 'The kettle has boiled.', appname: 'talk' });
  });
});

function whereIs(program: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('which', [program], (error, stdout) => (error ? reject(new Error(`${program} is not installed`)) : resolve(stdout.trim()))),
  );
}

function xdotool(desktop: Desktop, ...args: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) =>
    execFile('xdotool', args, { env: { ...process.env, ...desktop.env }, timeout: 15_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    ),
  );
}
