// What the relay acknowledged survives a crash (docs/relay.md, "Storage"): notifications answered 202, receipts
// and replies answered 200, keys answered 201 — all there after SIGKILL and a restart on the same storage.

import { describe, expect, test } from '@jest/globals';
import { BACKENDS, makeKey, pairWithKey, startRelay } from '../helpers/relay.js';

describe.each(BACKENDS)('durability (%s)', (backend) => {
  test('acknowledged writes are there after SIGKILL and a restart', async () => {
    const first = await startRelay({ backend });
    const device = await pairWithKey(first);
    const second = await makeKey(first, device.token);
    const sent = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        first.call('POST', '/v1/notify', { token: i % 2 ? device.key : second, body: { title: `n${i}`, notificationId: `n${i}` } }),
      ),
    );
    expect(sent.every((reply) => reply.status === 202)).toBe(true);
    const info = (await first.call('GET', '/v1/device/info', { token: device.token })).json;
    expect(info.pending).toBe(40);
    await first.kill();

    const again = await startRelay({ backend, dataDir: first.dataDir, databaseUrl: first.databaseUrl, secret: first.secret });
    for (let i = 0; i < 40; i++) {
      const receipt = await again.call('GET', `/v1/receipts/n${i}`, { token: i % 2 ? device.key : second });
      expect([i, receipt.status]).toEqual([i, 200]);
    }
    expect((await again.call('GET', '/v1/device/info', { token: device.token })).json).toMatchObject({ pending: 40, keys: 2 });
    await again.stop();
  });
});
