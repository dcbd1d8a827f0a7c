import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type DaemonProcess, startDaemon, tempFolder } from './helpers/daemon.js';
import { FakeRelay } from './helpers/fake-relay.js';
import { eventually } from './helpers/in-process.js';
import { type Keyring, lockKeyring, startKeyring } from './helpers/keyring.js';

// Where the device token is kept (docs/relay-desktop.md#the-device-token), against a real Secret Service:
// gnome-keyring-daemon on a private session bus (test/helpers/keyring.ts). The daemon is the built `notifier daemon`
// on that bus; the relay is the test's own (test/helpers/fake-relay.ts), which accepts the stream only with the token
// it gave. The test reads the keyring with libsecret's `secret-tool`, a client of its own: no route returns the token.

/** The attributes the daemon's item carries (besides the support folder's hash). */
const ITEM = ['application', 'notifier', 'account', 'relay-device-token'];

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe('the device token in the desktop Secret Service (gnome-keyring)', () => {
  let keyring: Keyring;
  let relay: FakeRelay;
  let supportDir: string;
  let daemon: DaemonProcess;

  beforeAll(async () => {
    keyring = await startKeyring();
    relay = await FakeRelay.start();
    supportDir = await tempFolder();
    daemon = await startDaemon({ supportDir, env: keyring.env });
  }, 30_000);

  afterAll(async () => {
    await daemon?.stop();
    await keyring?.stop();
  });

  const status = async () => (await daemon.api('GET', '/v1/relay/status')).json;
  const tokenFile = () => path.join(supportDir, 'secrets', 'relay-device-token');
  /** `secret-tool search` of the daemon's items: what it printed and its exit code. */
  const items = () => keyring.secretTool('search', '--all', ...ITEM);
  /** What `secret-tool search` says when the keyring holds none of them. */
  const NONE = { code: 0, stdout: '', stderr: '' };
  const pair = async () => {
    const after = relay.connections;
    const paired = await daemon.api('POST', '/v1/relay/pair', { body: { relayURL: relay.url } });
    expect([paired.status, paired.json]).toEqual([200, { paired: true, deviceId: relay.deviceId }]);
    await relay.connected(after);
  };
  const unpair = async () => {
    const unpaired = await daemon.api('POST', '/v1/relay/unpair', { body: {} });
    expect([unpaired.status, unpaired.json]).toEqual([200, { unpaired: true }]);
  };

  test('pairing keeps the token in the login keyring, not in the support folder; the status says so', async () => {
    await pair();
    expect(await keyring.secretTool('lookup', ...ITEM)).toEqual({ code: 0, stdout: relay.token, stderr: '' });
    expect((await items()).stdout).toContain('label = Notifier: device token of the cloud relay');
    expect(await exists(tokenFile())).toBe(false);
    const kept = await eventually(async () => ((await status()).online ? status() : undefined), 'the socket to be online');
    expect(kept).toMatchObject({ paired: true, state: 'online', deviceId: relay.deviceId, tokenStore: 'secret-service' });
    expect(JSON.stringify(kept)).not.toContain(relay.token);
  });

  test('the daemon started again reads the token from the keyring and reconnects with it', async () => {
    await daemon.stop();
    const before = relay.connections;
    daemon = await startDaemon({ supportDir, env: keyring.env });
    // The relay takes the stream only with its token: a hello on a new connection means the daemon read it.
    await relay.connected(before);
    await eventually(async () => (await status()).online, 'the socket to be online again');
    expect(await status()).toMatchObject({ state: 'online', tokenStore: 'secret-service' });
  });

  test('unpairing deletes the keyring item', async () => {
    await unpair();
    expect(await items()).toEqual(NONE);
    expect(await exists(tokenFile())).toBe(false);
  });

  test('a locked keyring (unlocking it would ask the person): the 0600 file instead, and nothing in the keyring', async () => {
    await lockKeyring(keyring);
    await pair();
    expect(await status()).toMatchObject({ paired: true, tokenStore: 'file' });
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    expect(await items()).toEqual(NONE);
    await unpair();
    expect(await exists(tokenFile())).toBe(false);
  });
});
