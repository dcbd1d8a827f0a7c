// The tools people already run, as they are, reaching the person's screen (docs/senders.md): Debian's `apprise`
// with its `ntfy://` and `gotify://` URLs and a sending key, against a real daemon on a real desktop (Xvfb, a
// private session bus, dunst), ending in a banner on dunst and a row in History; and an ntfy `http` action pressed
// in dunst's menu, whose request reaches a local server as it was written.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from '@jest/globals';
import { startDaemon } from '../helpers/daemon.js';
import { bannerOnDunst, useDesktopDaemon } from '../helpers/desktop.js';
import { callbackServer, eventually } from '../helpers/in-process.js';

const run = promisify(execFile);

describe('senders that speak ntfy and Gotify, on the desktop', () => {
  const { desktop, daemon } = useDesktopDaemon((desktop) => startDaemon({ env: desktop.env, presenter: 'dbus', tray: false }));

  const keyFor = async (app: string): Promise<string> => (await daemon().api('POST', '/v1/keys', { body: { app } })).json.key;
  const apprise = (...args: string[]) => run('apprise', ['-vv', ...args], { env: { ...process.env, HOME: daemon().supportDir } });
  const newest = async (app: string) => (await daemon().api('GET', `/v1/history?app=${app}&limit=1`)).json.items[0];

  test("apprise's ntfy:// URL with a sending key: a banner on dunst, a row in History, the priority and tags it sent", async () => {
    const key = await keyFor('backups');
    await apprise(
      '-t',
      'Backup finished',
      '-b',
      '18,204 files copied',
      `ntfy://notifier:${key}@127.0.0.1:${daemon().port}/backups?priority=high&tags=floppy_disk,nas`,
    );
    const banner = await bannerOnDunst(desktop(), '💾 Backup finished');
    expect(banner).toMatchObject({ appname: 'backups', body: '18,204 files copied' });
    expect((await newest('backups')).notification).toMatchObject({
      app: 'backups',
      title: '💾 Backup finished',
      body: '18,204 files copied',
      priority: 'high',
      metadata: { tags: ['nas'] },
    });
  });

  test("apprise's gotify:// URL with a sending key: the key's app", async () => {
    const key = await keyFor('uptime');
    await apprise('-t', 'Website down', '-b', 'example.org answered 503', `gotify://127.0.0.1:${daemon().port}/${key}`);
    const banner = await bannerOnDunst(desktop(), 'Website down');
    expect(banner).toMatchObject({ appname: 'uptime', body: 'example.org answered 503' });
    expect((await newest('uptime')).notification).toMatchObject({ app: 'uptime', title: 'Website down' });
  });

  test('a wrong key: apprise reports the failure, and nothing reaches the screen or History', async () => {
    const failed = await apprise('-t', 'Nope', '-b', 'x', `ntfy://notifier:tk_${'0'.repeat(29)}@127.0.0.1:${daemon().port}/intruder`).then(
      () => null,
      (error: { code: number }) => error,
    );
    expect(failed?.code).not.toBe(0);
    expect((await daemon().api('GET', '/v1/history?app=intruder')).json.items).toEqual([]);
  });

  test("an ntfy http action pressed in dunst's menu sends its request as written", async () => {
    const server = await callbackServer();
    const key = await keyFor('door');
    const action = `http, Close door, ${server.url('/door')}, method=PUT, headers.X-Token=secret-42, body={"open":false}`;
    const reply = await daemon().api('POST', '/door', {
      token: null,
      headers: { Authorization: `Bearer ${key}`, Title: 'Garage door open', Actions: action },
      body: 'Open for 10 minutes',
    });
    expect(reply.status).toBe(200);
    await eventually(async () => Number(await desktop().dunstctl('count', 'displayed')) === 1, 'the banner');
    await desktop().choose('Close door (Garage door open)');
    const [received] = await eventually(() => (server.received.length > 0 ? server.received : null), 'the request');
    expect(received).toMatchObject({ method: 'PUT', path: '/door', body: { open: false } });
    expect(received!.headers['x-token']).toBe('secret-42');
  });
});
