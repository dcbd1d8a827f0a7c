// The agent's side (docs/relay-api.md#ra40 to #ra49) over plain HTTP: credentials, the notify whitelist and its
// rules, sizes, dedupe, receipts, the reply long-poll, status, and voice replies with their signed links.

import { describe, expect, test } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { request } from '../helpers/http.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { BACKENDS, makeKey, pairWithKey, tampered, useRelay, type RelayProcess } from '../helpers/relay.js';

const send = (relay: RelayProcess, key: string, body: unknown, headers?: Record<string, string>) =>
  relay.call('POST', '/v1/notify', { token: key, body, headers });

describe.each(BACKENDS)('agent routes (%s)', (backend) => {
  const relay = useRelay({ backend });

  test('credentials: none, malformed, forged, revoked 401; the device token 403 wrong_credential', async () => {
    const device = await pairWithKey(relay());
    expect((await relay().call('GET', '/v1/status')).json).toMatchObject({ error: 'unauthorized' });
    expect((await relay().call('GET', '/v1/status', { headers: { Authorization: `Basic ${device.key}` } })).status).toBe(401);
    expect((await relay().call('GET', '/v1/status', { token: 'hrk_nonsense' })).status).toBe(401);
    // A well-shaped key whose device id the relay did not sign: refused before any lookup.
    const [, deviceId, keyPart, secret] = device.key.split('_');
    const forged = `hrk_${tampered(deviceId!)}_${keyPart}_${secret}`;
    expect((await relay().call('GET', '/v1/status', { token: forged })).status).toBe(401);
    const wrongSecret = tampered(device.key);
    expect((await relay().call('GET', '/v1/status', { token: wrongSecret })).status).toBe(401);
    const asDevice = await relay().call('GET', '/v1/status', { token: device.token });
    expect(asDevice.status).toBe(403);
    expect(asDevice.json.error).toBe('wrong_credential');

    const keyId = device.key.split('_')[2];
    expect((await relay().call('DELETE', `/v1/device/keys/${keyId}`, { token: device.token })).json).toEqual({ revoked: true, id: keyId });
    expect((await relay().call('GET', '/v1/status', { token: device.key })).status).toBe(401);
  });

  test('notify: 202 with the receipt; a repeated notificationId within 24 h is 200 duplicate with the first receipt', async () => {
    const device = await pairWithKey(relay());
    const first = await send(relay(), device.key, { title: 'Tests passed', notificationId: 'run-7', expectReply: true });
    expect(first.status).toBe(202);
    expect(first.json).toEqual({
      duplicate: false,
      notificationId: 'run-7',
      received: true,
      receivedAt: expect.any(String),
      queued: true,
      displayed: false,
      spoken: false,
      replied: false,
      expectReply: true,
      suppressed: false,
    });
    const again = await send(relay(), device.key, { title: 'Tests passed (again)', notificationId: 'run-7' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ...first.json, duplicate: true });
    // Ids are per key: another key may use the same one.
    const other = await makeKey(relay(), device.token);
    expect((await send(relay(), other, { title: 'mine', notificationId: 'run-7' })).status).toBe(202);
    // Without an id the relay makes one.
    const anonymous = await send(relay(), device.key, { title: 'no id' });
    expect(anonymous.json.notificationId).toMatch(/^n_[0-9a-f]{24}$/);
  });

  test('forbidden_fields names every refused key, top-level and inside speak', async () => {
    const device = await pairWithKey(relay());
    const reply = await send(relay(), device.key, {
      title: 't',
      command: 'rm -rf ~',
      buttons: [],
      colour: 'red',
      speak: { text: 'hi', pitch: 3 },
    });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toBe('forbidden_fields');
    expect(reply.json.fields).toEqual(['command', 'buttons', 'colour', 'speak.pitch']);
    expect(reply.json.message).toContain('command, buttons');
  });

  test('an image field is refused with what to send instead (imageURL), not as something that could run', async () => {
    const device = await pairWithKey(relay());
    const reply = await send(relay(), device.key, { title: 't', image: '/home/me/chart.png' });
    expect([reply.status, reply.json.error, reply.json.fields]).toEqual([400, 'forbidden_fields', ['image']]);
    expect(reply.json.message).toContain('image: send imageURL instead');
    expect(reply.json.message).toContain('https');
    expect(reply.json.message).not.toContain('run anything');
    // Beside a field that could run something, each gets its own reason.
    const both = await send(relay(), device.key, { title: 't', image: 'x.png', command: 'ls' });
    expect(both.json.fields).toEqual(['image', 'command']);
    expect(both.json.message).toMatch(/command: a relayed notification can never run anything/);
    expect(both.json.message).toContain('image: send imageURL instead');
  });

  test('after the computer unpairs, its keys answer 401 device_unpaired, saying so; a revoked key stays unauthorized', async () => {
    const device = await pairWithKey(relay());
    const revoked = await makeKey(relay(), device.token);
    expect((await relay().call('DELETE', `/v1/device/keys/${revoked.split('_')[2]}`, { token: device.token })).status).toBe(200);
    const stillRevoked = await relay().call('GET', '/v1/status', { token: revoked });
    expect([stillRevoked.status, stillRevoked.json.error]).toEqual([401, 'unauthorized']);

    expect((await relay().call('DELETE', '/v1/device', { token: device.token })).status).toBe(200);
    for (const [method, path, body] of [
      ['GET', '/v1/status', undefined],
      ['POST', '/v1/notify', { title: 'anyone there?' }],
      ['GET', '/v1/receipts/n1', undefined],
    ] as const) {
      const reply = await relay().call(method, path, { token: device.key, body });
      expect([path, reply.status, reply.json.error]).toEqual([path, 401, 'device_unpaired']);
      expect(reply.json.message).toContain('the computer this key belonged to was unpaired');
    }
    const mcp = await relay().call('POST', '/mcp', { token: device.key, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect([mcp.status, mcp.json.error]).toEqual([401, 'device_unpaired']);
    expect(mcp.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  test('field rules: 400 invalid_request naming each field that breaks its rule', async () => {
    const device = await pairWithKey(relay());
    const cases: [object, string[]][] = [
      [{}, ['title']],
      [{ title: '   ' }, ['title']],
      [{ title: 'x'.repeat(201) }, ['title']],
      [{ title: 't', body: 5 }, ['body']],
      [{ title: 't', link: 'http://example.com' }, ['link']],
      [{ title: 't', imageURL: 'file:///etc/passwd' }, ['imageURL']],
      [{ title: 't', priority: 'critical', presentation: 'popup' }, ['priority', 'presentation']],
      [{ title: 't', notificationId: 'has space' }, ['notificationId']],
      [{ title: 't', timeoutSeconds: 0 }, ['timeoutSeconds']],
      [{ title: 't', sound: '../../bin/sh' }, ['sound']],
      [{ title: 't', tags: ['a,b'] }, ['tags']],
      [{ title: 't', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, ['tags']],
      [{ title: 't', status: 'not ok!' }, ['status']],
      [{ title: 't', expectReply: 'yes' }, ['expectReply']],
      [{ title: 't', speed: 3 }, ['speed']],
      [{ title: 't', speak: { voice: 'a b', lang: 'english' } }, ['speak.voice', 'speak.lang']],
      [{ title: 't', icon: 'data:image/svg+xml;base64,PHN2Zz4=' }, ['icon']],
      [{ title: 't', collapseId: 'has space' }, ['collapseId']],
      [{ title: 't', showAt: 'tomorrow at nine' }, ['showAt']],
      [{ title: 't', showAt: '2026-12-07T09:00:00' }, ['showAt']],
      [{ title: 't', showAt: new Date(Date.now() + 4 * 86_400_000).toISOString() }, ['showAt']],
    ];
    for (const [body, fields] of cases) {
      const reply = await send(relay(), device.key, body);
      expect({ body, status: reply.status, error: reply.json.error, fields: reply.json.fields }).toEqual({
        body,
        status: 400,
        error: 'invalid_request',
        fields,
      });
    }
    const notObject = await send(relay(), device.key, '[1,2]');
    expect(notObject.json).toMatchObject({ error: 'invalid_request', message: 'the body must be a JSON object' });
    const notJSON = await send(relay(), device.key, '{"title":');
    expect(notJSON.json).toMatchObject({ error: 'invalid_request', message: 'the body is not valid JSON' });
  });

  test('the computer receives the cleaned payload: trimmed, normalised, voice merged into speak, nothing else', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    await send(relay(), device.key, {
      title: '  Deploy done ',
      subtitle: '',
      link: 'https://EXAMPLE.com/a b',
      duration: 12.5,
      voice: 'Samantha',
      speak: 'It is done',
      presentation: 'both',
      priority: 'high',
      notificationId: 'clean-1',
      allowVoiceReply: false,
    });
    const frame = await socket.notifyFrame('clean-1');
    expect(frame.payload).toEqual({
      title: 'Deploy done',
      duration: '12.5',
      link: 'https://example.com/a%20b',
      priority: 'high',
      notificationId: 'clean-1',
      expectReply: false,
      allowVoiceReply: false,
      presentation: 'both',
      speak: { voice: 'Samantha', text: 'It is done' },
    });
    await send(relay(), device.key, { title: 'quiet', presentation: 'voice', speak: false, notificationId: 'clean-2' });
    expect((await socket.notifyFrame('clean-2')).payload).toEqual({
      title: 'quiet',
      presentation: 'voice',
      speak: false,
      notificationId: 'clean-2',
      expectReply: false,
    });
    await send(relay(), device.key, { title: 'talk', presentation: 'voice', notificationId: 'clean-3' });
    expect((await socket.notifyFrame('clean-3')).payload.speak).toBe(true);
    await socket.close();
  });

  test('size: 32 KiB without the icon; a data-URL icon of up to 256 KiB on top is fine; a body announced too large is not read', async () => {
    const device = await pairWithKey(relay());
    const big = await send(relay(), device.key, {
      title: 't',
      body: 'x'.repeat(7000),
      project: 'p',
      tags: ['a'],
      subtitle: 's'.repeat(200),
      task: 'y'.repeat(100),
      session: 'é'.repeat(100),
      tool: 'z'.repeat(100),
      group: 'g'.repeat(100),
    });
    expect(big.status).toBe(202); // well under 32 KiB
    const icon = `data:image/png;base64,${Buffer.alloc(200 * 1024, 7).toString('base64')}`;
    expect((await send(relay(), device.key, { title: 'with icon', icon })).status).toBe(202);
    const padded = await send(relay(), device.key, { title: 't', icon, body: 'x'.repeat(8000), padding: 'y'.repeat(30_000) });
    expect(padded.status).toBe(413);
    expect(padded.json.error).toBe('too_large');
    const overIcon = `data:image/png;base64,${Buffer.alloc(257 * 1024, 7).toString('base64')}`;
    expect((await send(relay(), device.key, { title: 't', icon: overIcon })).json).toMatchObject({
      error: 'invalid_request',
      fields: ['icon'],
    });
    const hugeIcon = `data:image/png;base64,${Buffer.alloc(400 * 1024, 7).toString('base64')}`;
    expect((await send(relay(), device.key, { title: 't', icon: hugeIcon })).status).toBe(413); // past the allowance: not even parsed
    const announced = await request(relay().port, 'POST', '/v1/notify', {
      token: device.key,
      body: '{"title":"t"}',
      headers: { 'Content-Length': String(10 * 1024 * 1024) },
      timeoutMs: 5000,
    }).catch((error: Error) => ({ status: -1, error }));
    expect(announced.status).toBe(413);
  });

  test('receipts: 404 for an unknown id or another key; status has exactly online, lastSeenAt, quietHours', async () => {
    const device = await pairWithKey(relay());
    await send(relay(), device.key, { title: 't', notificationId: 'mine' });
    const receipt = await relay().call('GET', '/v1/receipts/mine', { token: device.key });
    expect(receipt.status).toBe(200);
    expect(receipt.json).toMatchObject({ notificationId: 'mine', queued: true });
    expect((await relay().call('GET', '/v1/receipts/nope', { token: device.key })).json).toMatchObject({ error: 'not_found' });
    const other = await makeKey(relay(), device.token);
    expect((await relay().call('GET', '/v1/receipts/mine', { token: other })).status).toBe(404);
    const status = await relay().call('GET', '/v1/status', { token: device.key });
    expect(Object.keys(status.json).sort()).toEqual(['lastSeenAt', 'online', 'quietHours']);
    expect(status.json.quietHours).toEqual({ active: false });
    expect((await relay().call('POST', '/v1/status', { token: device.key })).status).toBe(405);
  });

  test('device receipts: first value wins, any receipt acknowledges, a reply needs content, unknown ids 404', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    await send(relay(), device.key, { title: 't', notificationId: 'r1' });
    const { id } = await socket.notifyFrame('r1');
    const post = (kind: string, more: object = {}) =>
      relay().call('POST', '/v1/device/receipt', { token: device.token, body: { id, kind, ...more } });
    expect((await post('displayed')).json).toEqual({ ok: true });
    const displayedAt = (await relay().call('GET', '/v1/receipts/r1', { token: device.key })).json.displayedAt;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await post('displayed');
    await post('spoken');
    await post('suppressed', { reason: 'Quiet Hours!', scope: 'speech' });
    const empty = await post('replied');
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe('invalid_request');
    expect((await post('replied', { text: 'first', durationSeconds: 3 })).status).toBe(200);
    await post('replied', { text: 'second' });
    const receipt = (await relay().call('GET', '/v1/receipts/r1', { token: device.key })).json;
    expect(receipt).toMatchObject({
      displayed: true,
      displayedAt,
      spoken: true,
      replied: true,
      reply: 'first',
      text: 'first',
      durationSeconds: 3,
      queued: false,
      suppressed: true,
      reason: 'suppressed', // a reason that breaks the rule is stored as "suppressed"
      suppressedScope: 'speech',
    });
    expect((await post('opened')).json).toMatchObject({ error: 'invalid_request', fields: ['kind'] });
    expect((await post('replied', { text: 'x'.repeat(4001) })).json).toMatchObject({ error: 'invalid_request', fields: ['text'] });
    expect((await post('replied', { durationSeconds: 601, text: 'x' })).json.fields).toEqual(['durationSeconds']);
    expect(
      (
        await relay().call('POST', '/v1/device/receipt', {
          token: device.token,
          body: { id: 'r_000000000000000000000000', kind: 'displayed' },
        })
      ).status,
    ).toBe(404);
    expect((await relay().call('POST', '/v1/device/reply', { token: device.token, body: { id, text: 'hm' } })).status).toBe(200);
    await socket.close();
  });

  test('replies: wait 0 answers at once; a wait runs out with timedOut; a reply or an all-scope suppression ends it, a speech one does not', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    for (const nid of ['w1', 'w2', 'w3']) await send(relay(), device.key, { title: nid, notificationId: nid, expectReply: true });
    const frames = await Promise.all(['w1', 'w2', 'w3'].map((nid) => socket.notifyFrame(nid)));

    expect((await relay().call('GET', '/v1/replies/w1', { token: device.key })).json).toEqual({
      notificationId: 'w1',
      replied: false,
      suppressed: false,
    });
    const started = Date.now();
    const timedOut = await relay().call('GET', '/v1/replies/w1?wait=1', { token: device.key });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(timedOut.json).toEqual({ notificationId: 'w1', replied: false, timedOut: true, suppressed: false });
    expect((await relay().call('GET', '/v1/replies/w1?wait=soon', { token: device.key })).json).toMatchObject({
      error: 'invalid_request',
      fields: ['wait'],
    });
    expect((await relay().call('GET', '/v1/replies/unknown?wait=1', { token: device.key })).status).toBe(404);

    const receipt = (id: string, body: object) =>
      relay().call('POST', '/v1/device/receipt', { token: device.token, body: { id, ...body } });
    const replyWait = relay().call('GET', '/v1/replies/w1?wait=30', { token: device.key });
    const allWait = relay().call('GET', '/v1/replies/w2?wait=30', { token: device.key });
    const speechWait = relay().call('GET', '/v1/replies/w3?wait=2', { token: device.key });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const woke = Date.now();
    await receipt(frames[0]!.id, { kind: 'replied', text: 'yes' });
    await receipt(frames[1]!.id, { kind: 'suppressed', reason: 'muted' });
    await receipt(frames[2]!.id, { kind: 'suppressed', reason: 'quiet-hours', scope: 'speech' });
    expect((await replyWait).json).toMatchObject({ replied: true, reply: 'yes' });
    expect((await allWait).json).toEqual({ notificationId: 'w2', replied: false, suppressed: true, reason: 'muted' });
    expect(Date.now() - woke).toBeLessThan(10_000); // they waited for 30 s
    expect((await speechWait).json).toEqual({
      notificationId: 'w3',
      replied: false,
      timedOut: true,
      suppressed: true,
      reason: 'quiet-hours',
    });
    await socket.close();
  });

  test('voice replies: upload, reply with the transcript, a signed link that expires; the checks of the download in order', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    await send(relay(), device.key, { title: 'Say it', notificationId: 'v1', expectReply: true });
    const { id: rid } = await socket.notifyFrame('v1');
    const audio = Buffer.concat([Buffer.from('....ftypM4A '), Buffer.alloc(3000, 9)]);
    const upload = await relay().call('PUT', `/v1/device/reply/${rid}/audio`, {
      token: device.token,
      body: audio,
      headers: { 'Content-Type': 'audio/mp4' },
    });
    expect(upload.json).toEqual({ ok: true, bytes: audio.length });
    await relay().call('POST', '/v1/device/reply', { token: device.token, body: { id: rid, transcript: 'ship it', durationSeconds: 2.5 } });

    const reply = (await relay().call('GET', '/v1/replies/v1', { token: device.key })).json;
    expect(reply).toEqual({
      notificationId: 'v1',
      replied: true,
      repliedAt: expect.any(String),
      reply: 'ship it',
      transcript: 'ship it',
      transcriptNote: "transcribed on the user's computer; may be imperfect",
      audioUrl: expect.stringMatching(
        new RegExp(`^http://127\\.0\\.0\\.1:${relay().port}/v1/audio/${device.deviceId}/${rid}\\.m4a\\?exp=\\d+&sig=[0-9a-f]{64}$`),
      ),
      audioUrlExpiresInSeconds: 3600,
      durationSeconds: 2.5,
      suppressed: false,
    });
    const link = new URL(reply.audioUrl);
    const download = await relay().call('GET', link.pathname + link.search);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('audio/mp4');
    expect(download.headers['cache-control']).toBe('private, no-store');
    expect(download.headers['content-length']).toBe(String(audio.length));
    expect(download.raw.equals(audio)).toBe(true);
    // The link follows the address the agent used (a proxy's Host).
    const viaHost = (await relay().call('GET', '/v1/receipts/v1', { token: device.key, headers: { Host: 'relay.example.org' } })).json;
    expect(viaHost.audioUrl).toMatch(/^http:\/\/relay\.example\.org\/v1\/audio\//);

    const sign = (exp: number) => createHmac('sha256', relay().secret!).update(`audio:${device.deviceId}/${rid}.m4a:${exp}`).digest('hex');
    const past = Math.floor(Date.now() / 1000) - 5;
    const expired = await relay().call('GET', `/v1/audio/${device.deviceId}/${rid}.m4a?exp=${past}&sig=${sign(past)}`);
    expect([expired.status, expired.json.error]).toEqual([410, 'expired']);
    const exp = link.searchParams.get('exp')!;
    const forged = await relay().call('GET', `/v1/audio/${device.deviceId}/${rid}.m4a?exp=${exp}&sig=${'0'.repeat(64)}`);
    expect([forged.status, forged.json.error]).toEqual([403, 'forbidden']);
    expect((await relay().call('GET', `/v1/audio/${device.deviceId}/${rid}.mp3?exp=${exp}&sig=${sign(Number(exp))}`)).status).toBe(404);
    const missingRid = 'r_000000000000000000000000';
    const signedMissing = createHmac('sha256', relay().secret!).update(`audio:${device.deviceId}/${missingRid}.m4a:${exp}`).digest('hex');
    expect((await relay().call('GET', `/v1/audio/${device.deviceId}/${missingRid}.m4a?exp=${exp}&sig=${signedMissing}`)).status).toBe(404);
    await socket.close();
  });

  test('upload checks in order: unknown note 404, announced size 413, empty 400, actual size 413, Content-Type 415', async () => {
    const device = await pairWithKey(relay());
    const socket = await DeviceSocket.connect(relay().port, device.token);
    await send(relay(), device.key, { title: 't', notificationId: 'u1' });
    const { id: rid } = await socket.notifyFrame('u1');
    const put = (path: string, body: Buffer | string, headers: Record<string, string>) =>
      relay().call('PUT', path, { token: device.token, body, headers });
    expect((await put('/v1/device/reply/r_000000000000000000000000/audio', 'x', { 'Content-Type': 'audio/mp4' })).status).toBe(404);
    const announced = await request(relay().port, 'PUT', `/v1/device/reply/${rid}/audio`, {
      token: device.token,
      body: 'x',
      headers: { 'Content-Type': 'text/plain', 'Content-Length': String(2 * 1024 * 1024) },
      timeoutMs: 5000,
    });
    expect(announced.status).toBe(413);
    expect((await put(`/v1/device/reply/${rid}/audio`, Buffer.alloc(0), { 'Content-Type': 'audio/mp4' })).json).toMatchObject({
      error: 'invalid_request',
    });
    const chunked = await put(`/v1/device/reply/${rid}/audio`, Buffer.alloc(1024 * 1024 + 1), { 'Content-Type': 'audio/mp4' });
    expect(chunked.status).toBe(413);
    const type = await put(`/v1/device/reply/${rid}/audio`, Buffer.alloc(10), { 'Content-Type': 'audio/mpeg' });
    expect([type.status, type.json.error]).toEqual([415, 'unsupported_media_type']);
    expect((await put(`/v1/device/reply/${rid}/audio`, Buffer.alloc(10), { 'Content-Type': 'audio/x-m4a; codecs=mp4a' })).status).toBe(200);
    const asAgent = await relay().call('PUT', `/v1/device/reply/${rid}/audio`, { token: device.key, body: 'x' });
    expect(asAgent.json.error).toBe('wrong_credential');
    await socket.close();
  });
});
