// The relay's wire contract as pure functions (protocol/relay/), and its credentials (relay/core/credentials.ts):
// what the desktop client will apply to what it receives, and what the relay checks before any query.

import { describe, expect, test } from '@jest/globals';
import { RelayError } from '../../../protocol/relay/errors.js';
import { MAX_FRAME_BYTES } from '../../../protocol/relay/limits.js';
import { parseDeviceFrame, readDeviceStatus } from '../../../protocol/relay/frames.js';
import { checkNotifyBodySize, checkShowAt, cleanNotification, maxNotifyRequestBytes } from '../../../protocol/relay/notify.js';
import { readReceipt } from '../../../protocol/relay/receipts.js';
import { bearerToken, Credentials, newAgentKey, newDeviceToken, parseCredential, sha256Hex } from '../../../relay/core/credentials.js';
import { deviceLockKey } from '../../../relay/store/postgres.js';

const refusal = (run: () => unknown): RelayError => {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a RelayError');
};

describe('the notify whitelist', () => {
  test('the cleaned payload keeps only present fields, plus expectReply', () => {
    expect(cleanNotification({ title: 't' })).toEqual({ title: 't', expectReply: false });
    expect(cleanNotification({ title: ' t ', body: '', tags: [], speak: '', priority: 'low' })).toEqual({
      title: 't',
      priority: 'low',
      expectReply: false,
      speak: true,
    });
  });

  test('voice and speed merge into speak, whose own values win; speak:false stays off', () => {
    expect(cleanNotification({ title: 't', voice: 'Alex', speed: 1.5, speak: { voice: 'Zoe', lang: 'en-GB' } }).speak).toEqual({
      voice: 'Zoe',
      speed: 1.5,
      lang: 'en-GB',
    });
    expect(cleanNotification({ title: 't', speed: 0.5 }).speak).toEqual({ speed: 0.5 });
    expect(cleanNotification({ title: 't', voice: 'Alex', speak: false }).speak).toBe(false);
    expect(cleanNotification({ title: 't', presentation: 'banner' }).speak).toBeUndefined();
  });

  test('showAt is a time with its zone, kept in UTC, at most 3 days ahead of the relay; collapseId is an id', () => {
    const payload = cleanNotification({ title: 't', showAt: '2026-12-07T10:30:00+01:00', collapseId: 'backup:nightly' });
    expect(payload).toMatchObject({ showAt: '2026-12-07T09:30:00.000Z', collapseId: 'backup:nightly' });
    const now = Date.parse('2026-12-06T09:30:00Z');
    expect(() => checkShowAt(payload, now)).not.toThrow();
    expect(() => checkShowAt(payload, now + 86_400_000)).not.toThrow(); // already past: shown at once
    const tooFar = refusal(() => checkShowAt(payload, now - 3 * 86_400_000));
    expect([tooFar.code, tooFar.details.fields, tooFar.message]).toEqual(['invalid_request', ['showAt'], 'showAt: at most 3 days ahead']);
    for (const showAt of ['2026-12-07 09:30', '2026-12-07T09:30:00', '1765100000', '2026-13-07T09:30:00Z']) {
      expect(refusal(() => cleanNotification({ title: 't', showAt })).details.fields).toEqual(['showAt']);
    }
    expect(refusal(() => cleanNotification({ title: 't', collapseId: 'a/b' })).details.fields).toEqual(['collapseId']);
  });

  test('a withdrawal names its collapseId and carries nothing of a notification', () => {
    expect(cleanNotification({ withdraw: 'clear', collapseId: 'door-1' })).toEqual({
      title: '',
      expectReply: false,
      withdraw: 'clear',
      collapseId: 'door-1',
    });
    expect(
      cleanNotification({ withdraw: 'delete', collapseId: 'door-1', notificationId: 'undo-7', title: ' ', expectReply: false }),
    ).toEqual({
      title: '',
      expectReply: false,
      withdraw: 'delete',
      collapseId: 'door-1',
      notificationId: 'undo-7',
    });
    expect(refusal(() => cleanNotification({ withdraw: 'clear' })).details.fields).toEqual(['collapseId']);
    expect(refusal(() => cleanNotification({ withdraw: 'hide', collapseId: 'x' })).details.fields).toEqual(['withdraw']);
    const mixed = refusal(() => cleanNotification({ withdraw: 'clear', collapseId: 'x', title: 't', body: 'b', expectReply: true }));
    expect([mixed.code, mixed.details.fields]).toEqual(['invalid_request', ['title', 'body', 'expectReply']]);
    expect(mixed.message).toContain('title: not sent with withdraw');
  });

  test('refused keys are all named, dangerous ones called out', () => {
    const error = refusal(() => cleanNotification({ title: 't', exec: 'x', foo: 1 }));
    expect([error.code, error.status, error.details.fields]).toEqual(['forbidden_fields', 400, ['exec', 'foo']]);
    expect(error.message).toMatch(/^fields not accepted: exec, foo \(exec: a relayed notification can never run anything/);
  });

  test('the body may exceed MAX_BODY_BYTES only by its icon', () => {
    const icon = 'data:image/png;base64,' + 'A'.repeat(5000);
    expect(() => checkNotifyBodySize(5100, { title: 't', icon }, 1000)).not.toThrow();
    expect(refusal(() => checkNotifyBodySize(6500, { title: 't', icon }, 1000)).code).toBe('too_large');
    expect(maxNotifyRequestBytes(32 * 1024)).toBe(32 * 1024 + Math.ceil((256 * 1024 * 4) / 3) + 64);
  });
});

describe('receipts and frames', () => {
  test('readReceipt: kinds, the id alias on the socket, reasons and scopes', () => {
    const id = 'r_0123456789abcdef01234567';
    expect(readReceipt({ notificationId: id, kind: 'suppressed', reason: 'Bad Reason' }, { idAlias: true })).toEqual({
      id,
      kind: 'suppressed',
      reason: 'suppressed',
      scope: 'all',
    });
    expect(refusal(() => readReceipt({ notificationId: id, kind: 'displayed' })).details.fields).toEqual(['id']);
    expect(readReceipt({ id, text: ' hi ' }, { kind: 'replied' })).toEqual({ id, kind: 'replied', text: 'hi' });
    expect(refusal(() => readReceipt({ id, kind: 'suppressed', scope: 'banner' })).details.fields).toEqual(['scope']);
  });

  test('parseDeviceFrame ignores what the relay must ignore', () => {
    expect(parseDeviceFrame('{"type":"ack","id":"r_1"}')).toEqual({ type: 'ack', id: 'r_1' });
    expect(parseDeviceFrame('not json')).toBeUndefined();
    expect(parseDeviceFrame('[1]')).toBeUndefined();
    expect(parseDeviceFrame('{"type":"exec"}')).toBeUndefined();
    expect(parseDeviceFrame(JSON.stringify({ type: 'status', pad: 'é'.repeat(MAX_FRAME_BYTES / 2) }))).toBeUndefined(); // bytes, not characters
    expect(readDeviceStatus({ type: 'hello', quietActive: true, quietUntil: '', extra: 1 })).toEqual({ quietActive: true });
  });
});

describe('credentials', () => {
  const credentials = new Credentials('s'.repeat(32));

  test("device ids are signed: the relay recognises its own and nobody else's", () => {
    const id = credentials.newDeviceId();
    expect(id).toMatch(/^[0-9a-f]{48}$/);
    expect(credentials.verifyDeviceId(id)).toBe(true);
    expect(new Credentials('t'.repeat(32)).verifyDeviceId(id)).toBe(false);
    expect(credentials.verifyDeviceId(`${id.slice(0, 47)}${id.endsWith('0') ? '1' : '0'}`)).toBe(false);
    expect(credentials.verifyDeviceId(id.toUpperCase())).toBe(false);
  });

  test("tokens parse to their device, key and secret; only the secret's hash is kept", () => {
    const id = credentials.newDeviceId();
    const device = newDeviceToken(id);
    expect(parseCredential(device.token)).toEqual({ kind: 'device', deviceId: id, secret: device.token.slice(-64) });
    expect(device.hash).toBe(sha256Hex(device.token.slice(-64)));
    const key = newAgentKey(id, 'abcd0123');
    expect(parseCredential(key.key)).toEqual({ kind: 'key', deviceId: id, keyId: 'abcd0123', secret: key.key.slice(-64) });
    expect(parseCredential(`hra_${id}_${'f'.repeat(64)}`)).toMatchObject({ kind: 'access', deviceId: id });
    expect(parseCredential(`hrk_${id}_abcd0123_${'f'.repeat(63)}`)).toBeUndefined();
  });

  test('Authorization: the Bearer scheme in any case, one token', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bEaReR   abc ')).toBe('abc');
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  test('the advisory-lock key of a device is a positive 64-bit number', () => {
    expect(deviceLockKey('f'.repeat(48))).toBe(String(2n ** 60n - 1n));
    expect(deviceLockKey('0'.repeat(47) + '1')).toBe('0');
  });
});

test("the version the relay reports is package.json's", async () => {
  const { RELAY_VERSION } = await import('../../../relay/version.js');
  const { readFile } = await import('node:fs/promises');
  expect(RELAY_VERSION).toBe(JSON.parse(await readFile(`${__dirname}/../../../package.json`, 'utf8')).version);
});
