// The relay's SQL texts are a fixed set (docs/relay.md, "Storage"): on Node 24 better-sqlite3's statements must live
// as long as the process, so relay/store/sqlite.ts keeps one per distinct text, and a text built from data (an
// `in (?, ?, ...)` as long as a list, one insert of as many rows as there are values) would make that set grow with
// the data. In-process on the embedded database, watching what better-sqlite3 prepares: a round of reply events,
// webhook subscriptions, a cursor replay, connector approvals that expire and a revocation, then the same round with
// more of everything, which must prepare no new statement.

import { afterAll, describe, expect, jest, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { rm } from 'node:fs/promises';
import { loadConfig } from '../../../relay/config.js';
import { startRelay, type RunningRelay } from '../../../relay/server.js';
import { tempFolder } from '../../helpers/daemon.js';
import { DeviceSocket } from '../../helpers/device-socket.js';
import { request } from '../../helpers/http.js';
import { authorizeQuery, pageRid, pkce } from '../../helpers/oauth.js';
import { modernRequest, useWebhookRig } from '../../helpers/webhooks.js';

const rig = useWebhookRig();
const MINUTE = 60_000;

let running: RunningRelay | undefined;
let folder: string | undefined;
afterAll(async () => {
  rig().receiver.clock = Date.now;
  await running?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('SQL texts', () => {
  test('a round with more subscriptions, events, approvals and ids than the first prepares no new statement', async () => {
    folder = await tempFolder('notifier-sql-texts-');
    const clock = { now: Date.parse('2026-11-20T12:00:00Z') };
    const config = loadConfig({ RELAY_PORT: '0', RELAY_DATA_DIR: folder, HTTPS_PROXY: rig().proxy.url, REGISTER_PER_HOUR: '1000' });
    running = await startRelay(
      { ...config, secret: 'c'.repeat(64) },
      { clock: () => clock.now, background: false, outbound: { extraCA: [rig().certificates.ca] } },
    );
    rig().receiver.clock = () => clock.now;
    const relay = running;
    const call = (method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
      request(relay.port, method, path, { token: token ?? null, body, headers });
    const mcp = (key: string, method: string, params: Record<string, unknown>) => {
      const { body, headers } = modernRequest(method, params);
      return call('POST', '/mcp', key, body, headers);
    };
    let hooks = 0;

    /** One round with `n` of everything (n from 1 to 3: three approvals may wait on a computer). */
    const round = async (n: number) => {
      clock.now += MINUTE; // this round's computer is the one seen last: the approvals go to it
      const started = await call('POST', '/v1/pair/start', undefined, {});
      const paired = (await call('POST', '/v1/pair', undefined, { code: started.json.code })).json;
      const token = paired.deviceToken as string;
      const key = (await call('POST', '/v1/device/keys', token, { name: `agent-${n}` })).json.key as string;
      const subscribed = [];
      for (let i = 0; i < n; i++) {
        const hook = rig().hook(`/sql/${++hooks}`);
        subscribed.push(hook);
        const delivery = { mode: 'webhook', url: hook.url, secret: hook.secret };
        expect((await mcp(key, 'events/subscribe', { name: 'notification.reply', delivery })).json.result?.id).toBeDefined();
      }
      // n replies, each queued for n subscriptions; the outbox claims and delivers them.
      for (let i = 0; i < n; i++) {
        const nid = `n${n}-${i}`;
        await call('POST', '/v1/notify', key, { title: 'Deploy?', notificationId: nid, expectReply: true });
        const note = await relay.relay.store.db.selectFrom('notes').select('rid').where('nid', '=', nid).executeTakeFirstOrThrow();
        expect((await call('POST', '/v1/device/reply', token, { id: note.rid, text: 'yes' })).status).toBe(200);
      }
      for (const hook of subscribed) await rig().receiver.events(hook.path, n);
      // A cursor replays the n events at once.
      const replay = rig().hook(`/sql/${++hooks}`);
      const delivery = { mode: 'webhook', url: replay.url, secret: replay.secret };
      expect((await mcp(key, 'events/subscribe', { name: 'notification.reply', delivery, cursor: '0' })).json.result?.id).toBeDefined();
      await rig().receiver.events(replay.path, n);
      // n approvals begun while the computer is away: announced together when it connects, expired together.
      for (let i = 0; i < n; i++) {
        const client = (await call('POST', '/register', undefined, { redirect_uris: ['http://127.0.0.1:9/callback'] })).json.client_id;
        pageRid((await call('GET', `/authorize?${authorizeQuery(client, pkce().challenge)}`)).text);
      }
      const socket = await DeviceSocket.connect(relay.port, token);
      await socket.waitFor((frame) => typeof frame === 'object' && socket.ofType('consent').length === n, `${n} consent frames`);
      clock.now += 11 * MINUTE;
      const consents = (await call('GET', '/v1/device/consents', token)).json.consents;
      expect(consents.map((consent: { status: string }) => consent.status)).toEqual(Array(n).fill('expired'));
      await socket.close();
      // The connector's revocation ends its n + 1 subscriptions.
      expect((await call('DELETE', `/v1/device/keys/${key.split('_')[2]}`, token)).status).toBe(200);
      expect((await call('GET', '/v1/device/events', token)).json.subscriptions).toEqual([]);
      await relay.outbox.idle();
    };

    await round(1);
    const prepare = jest.spyOn(Database.prototype, 'prepare');
    try {
      await round(3);
      expect(prepare.mock.calls.map(([text]) => text)).toEqual([]);
    } finally {
      prepare.mockRestore();
    }
  });
});
