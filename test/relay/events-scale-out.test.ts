// Reply events with two relay processes on one PostgreSQL database (docs/relay.md, "Reply events"): both hear that
// events were queued and both look for due ones, yet each event reaches each subscription exactly once, in
// order, wherever the reply and the subscription were made.

import { describe, expect, test } from '@jest/globals';
import { DeviceSocket } from '../helpers/device-socket.js';
import { eventually } from '../helpers/in-process.js';
import { makeKey, pairWithKey, type RelayProcess } from '../helpers/relay.js';
import { HOOK_NAMES, subscribeHook, useWebhookRig } from '../helpers/webhooks.js';
import { useTwoNodes } from './two-nodes.js';

const rig = useWebhookRig();
const twoNodes = useTwoNodes();

describe('reply events across two relay processes', () => {
  test('each event is delivered exactly once to each subscription, in order, whichever node took the reply', async () => {
    const { a, b } = await twoNodes({ ...rig().env, RATE_LIMIT_PER_KEY: '1000' });
    const device = await pairWithKey(a);
    const second = await makeKey(a, device.token, 'second-agent');
    const hooks = [rig().hook('/scale/1'), rig().hook('/scale/2', HOOK_NAMES[1]), rig().hook('/scale/3', HOOK_NAMES[2])];
    const subscribe = async (node: RelayProcess, key: string, hook: (typeof hooks)[number]) =>
      expect((await subscribeHook(node, key, hook)).json.result.id).toBeDefined();
    await subscribe(a, device.key, hooks[0]!);
    await subscribe(b, device.key, hooks[1]!);
    await subscribe(b, second, hooks[2]!);

    const socket = await DeviceSocket.online(a.port, device.token);
    const count = 30;
    for (let i = 0; i < count; i++) {
      const key = i % 3 === 2 ? second : device.key;
      const sender = i % 2 ? a : b;
      expect(
        (await sender.call('POST', '/v1/notify', { token: key, body: { title: `q${i}`, notificationId: `q${i}`, expectReply: true } }))
          .status,
      ).toBe(202);
      const rid = (await socket.notifyFrame(`q${i}`)).id;
      if (i % 2) {
        socket.send({ type: 'receipt', id: rid, kind: 'replied', text: 'over the socket, on A' });
        // A socket frame has no answer: the reply is taken once its receipt says so. Only then does the next reply
        // come after it (events are in the order the replies were taken).
        await eventually(
          async () => (await a.call('GET', `/v1/receipts/q${i}`, { token: key })).json.replied === true,
          `the reply to q${i} to be taken`,
        );
      } else
        expect((await b.call('POST', '/v1/device/reply', { token: device.token, body: { id: rid, text: 'over HTTP, on B' } })).status).toBe(
          200,
        );
    }
    const mine = Array.from({ length: count }, (_, i) => i).filter((i) => i % 3 !== 2);
    const theirs = Array.from({ length: count }, (_, i) => i).filter((i) => i % 3 === 2);
    const expected: Array<[string, number[]]> = [
      [hooks[0]!.path, mine],
      [hooks[1]!.path, mine],
      [hooks[2]!.path, theirs],
    ];
    for (const [path, numbers] of expected) await rig().receiver.events(path, numbers.length, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // time for any second copy to arrive
    for (const [path, numbers] of expected) {
      const events = rig().receiver.on(path);
      expect(events.map((event) => event.json.data.notificationId)).toEqual(numbers.map((i) => `q${i}`)); // once each, in order
      expect(new Set(events.map((event) => event.headers['webhook-id'])).size).toBe(numbers.length);
      expect(events.every((event) => event.verified === true)).toBe(true);
    }
    await socket.close();
  }, 60_000);
});
