// The curl lines of ntfy's and Gotify's own documentation, run with the real curl against a real daemon as they are
// written, but for the host and the credential (a sending key: the daemon takes nothing without one): each lands in
// History as its documentation says it shows (docs/senders.md).

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from '@jest/globals';
import { useDaemon } from '../helpers/daemon.js';

const run = promisify(execFile);

describe("the curl lines of ntfy's and Gotify's documentation", () => {
  const daemon = useDaemon();
  const keys = new Map<string, string>();
  /** A sending key of `app`, made once. */
  const keyOf = async (app: string): Promise<string> => {
    if (!keys.has(app)) keys.set(app, (await daemon().api('POST', '/v1/keys', { body: { app } })).json.key);
    return keys.get(app)!;
  };
  const host = () => `127.0.0.1:${daemon().port}`;
  /** curl as the documentation writes it, with `-u :<key>` for ntfy's lines; its answer parsed. */
  const curl = async (...args: string[]): Promise<any> => JSON.parse((await run('curl', ['-sS', '--fail-with-body', ...args])).stdout);
  const newest = async (app: string) => (await daemon().api('GET', `/v1/history?app=${app}&limit=1`)).json.items[0].notification;

  test('curl -d "Backup successful 😀" ntfy.sh/mytopic', async () => {
    const answer = await curl('-u', `:${await keyOf('mytopic')}`, '-d', 'Backup successful 😀', `${host()}/mytopic`);
    expect(answer).toMatchObject({ event: 'message', topic: 'mytopic', message: 'Backup successful 😀' });
    expect(await newest('mytopic')).toMatchObject({ title: 'Backup successful 😀' });
  });

  test('title, priority and tags as headers (phil_alerts)', async () => {
    await curl(
      '-u',
      `:${await keyOf('phil_alerts')}`,
      '-H',
      'Title: Unauthorized access detected',
      '-H',
      'Priority: urgent',
      '-H',
      'Tags: warning,skull',
      '-d',
      'Remote access to phils-laptop detected. Act right away.',
      `${host()}/phil_alerts`,
    );
    expect(await newest('phil_alerts')).toMatchObject({
      title: '⚠️ 💀 Unauthorized access detected',
      body: 'Remote access to phils-laptop detected. Act right away.',
      priority: 'urgent',
    });
  });

  test('the short header t: and Markdown', async () => {
    const key = await keyOf('controversial');
    await curl('-u', `:${key}`, '-H', 't: Dogs are better than cats', '-d', 'Oh my ...', `${host()}/controversial`);
    expect(await newest('controversial')).toMatchObject({ title: 'Dogs are better than cats', body: 'Oh my ...' });
    await curl('-u', `:${key}`, '-d', 'Look ma, **bold text**, *italics*, ...', '-H', 'Markdown: yes', `${host()}/controversial`);
    expect(await newest('controversial')).toMatchObject({ title: 'Look ma, **bold text**, *italics*, ...' });
  });

  test("ntfy's JSON publishing", async () => {
    const json = JSON.stringify({
      topic: 'mytopic',
      message: 'Disk space is low at 5.1 GB',
      title: 'Low disk space alert',
      tags: ['warning', 'cd'],
      priority: 4,
      click: 'https://homecamera.lan/xasds1h2xsSsa/',
      actions: [{ action: 'view', label: 'Admin panel', url: 'https://filesrv.lan/admin' }],
    });
    await curl('-u', `:${await keyOf('mytopic')}`, host(), '-d', json);
    expect(await newest('mytopic')).toMatchObject({
      title: '⚠️ 💿 Low disk space alert',
      body: 'Disk space is low at 5.1 GB',
      priority: 'high',
      url: 'https://homecamera.lan/xasds1h2xsSsa/',
      buttons: [{ label: 'Admin panel', url: 'https://filesrv.lan/admin' }],
    });
  });

  test("Gotify's form line: the token in the query, the fields as multipart", async () => {
    const key = await keyOf('gotify-docs');
    const answer = await curl(
      `http://${host()}/message?token=${key}`,
      '-F',
      'title=my title',
      '-F',
      'message=my message',
      '-F',
      'priority=5',
    );
    expect(answer).toMatchObject({ title: 'my title', message: 'my message', priority: 5 });
    expect(await newest('gotify-docs')).toMatchObject({ title: 'my title', body: 'my message' });
  });

  test("Gotify's JSON line with X-Gotify-Key", async () => {
    const key = await keyOf('gotify-docs');
    await curl(
      '-X',
      'POST',
      `http://${host()}/message`,
      '-H',
      'accept: application/json',
      '-H',
      'Content-Type: application/json',
      '-H',
      `X-Gotify-Key: ${key}`,
      '-d',
      '{"message": "Well hello there.", "priority": 2, "title": "This is my title"}',
    );
    expect(await newest('gotify-docs')).toMatchObject({ title: 'This is my title', body: 'Well hello there.', priority: 'low' });
  });
});
