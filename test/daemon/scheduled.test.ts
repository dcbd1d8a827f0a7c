// ntfy's delayed publishes on a real daemon (docs/api/ntfy.md#nt9, docs/api/scheduled.md): kept on disk before the
// answer, listed, shown at their time, shown after a restart when their time passed while the daemon was stopped,
// cancelled before it; a delay ntfy would refuse is refused in its shape.

import { describe, expect, test } from '@jest/globals';
import { startDaemon, tempFolder, useDaemon } from '../helpers/daemon.js';
import { eventually } from '../helpers/in-process.js';

/** ntfy's shortest delay. */
const SOON = '10s';

describe("ntfy's delayed publishes", () => {
  const daemon = useDaemon();
  const publish = (topic: string, headers: Record<string, string>, body: string) =>
    daemon().api('POST', `/${topic}`, { headers: { 'Content-Type': 'text/plain', ...headers }, body });
  const titles = async (app: string) =>
    ((await daemon().api('GET', `/v1/history?app=${app}`)).json.items as any[]).map((item) => item.notification.title);

  test('kept and listed at once, shown at its time and no longer listed; the answer says when', async () => {
    const sent = Date.now();
    const reply = await publish('later', { Title: 'Stand up and stretch', 'X-Delay': SOON }, 'You have been sitting for an hour');
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ topic: 'later', title: 'Stand up and stretch', event: 'message' });
    expect(reply.json.time * 1000).toBeGreaterThanOrEqual(Math.floor(sent / 1000) * 1000 + 9_000);
    const listed = (await daemon().api('GET', '/v1/scheduled?app=later')).json.scheduled;
    expect(listed).toEqual([
      { app: 'later', id: reply.json.id, title: 'Stand up and stretch', at: expect.any(String), createdAt: expect.any(String) },
    ]);
    expect(await titles('later')).toEqual([]);
    await eventually(async () => (await titles('later')).includes('Stand up and stretch'), 'the notification at its time', 20_000);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(9_500);
    expect((await daemon().api('GET', '/v1/scheduled')).json.scheduled).toEqual([]);
  }, 40_000);

  test('cancelled before its time, it never shows; cancelling again is 404', async () => {
    const reply = await publish('cancelled', { Title: 'Never', 'X-Sequence-ID': 'never', In: '1h' }, 'x');
    expect(reply.json.id).toBe('never');
    expect((await daemon().api('DELETE', '/v1/scheduled?app=cancelled&id=never')).json).toEqual({ ok: true });
    expect((await daemon().api('GET', '/v1/scheduled?app=cancelled')).json.scheduled).toEqual([]);
    const again = await daemon().api('DELETE', '/v1/scheduled?app=cancelled&id=never');
    expect([again.status, again.json.code]).toEqual([404, 'scheduled_not_found']);
  });

  test('a delay ntfy would refuse is refused in its shape, and nothing is kept', async () => {
    for (const [delay, code] of [
      ['soon', 40004],
      ['5s', 40005],
      ['4 days', 40006],
    ] as const) {
      const reply = await publish('refused', { 'X-Delay': delay }, 'x');
      expect({ delay, status: reply.status, code: reply.json.code }).toEqual({ delay, status: 400, code });
    }
    expect((await daemon().api('GET', '/v1/scheduled?app=refused')).json.scheduled).toEqual([]);
  });
});

test('a notification whose time passed while the daemon was stopped shows when it starts again', async () => {
  const supportDir = await tempFolder();
  const first = await startDaemon({ supportDir });
  const reply = await first.api('PUT', '/restarted', {
    // A delay, counted from the request's arrival: a Unix time made here could be under ntfy's 10 s by the time a
    // loaded machine delivers it.
    headers: { Title: 'Kept over a restart', 'X-Delay': '10s' },
    body: 'x',
  });
  expect(reply.status).toBe(200);
  expect(await first.stop()).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  const second = await startDaemon({ supportDir });
  const shown = await eventually(async () => {
    const items = (await second.api('GET', '/v1/history?app=restarted')).json.items as any[];
    return items.find((item) => item.notification.title === 'Kept over a restart');
  }, 'the notification after the restart');
  expect(shown.id).toBe(reply.json.id);
  expect((await second.api('GET', '/v1/scheduled')).json.scheduled).toEqual([]);
  await second.stop();
}, 60_000);
