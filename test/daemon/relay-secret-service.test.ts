import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { CLI, type DaemonProcess, startDaemon, tempFolderSync } from '../helpers/daemon.js';
import { eventually } from '../helpers/in-process.js';
import { type Keyring, startKeyring } from '../helpers/keyring.js';
import { runProgram } from '../helpers/process.js';
import { useRelay } from '../helpers/relay.js';
import { exists } from '../helpers/support.js';

// Where the device token is kept (docs/relay-desktop.md#the-device-token), with real parts: gnome-keyring-daemon
// on a private session bus (test/helpers/keyring.ts), the relay of this repository as a process, and the built
// `notifier daemon` on that bus, paired and unpaired with the `notifier relay` commands. The test reads the
// keyring with libsecret's `secret-tool`, a client of its own, as the person may read their own keyring: no route
// or command of ours returns the token.

/** The attributes the daemon's item carries (besides the support folder's hash). */
const ATTRIBUTES = ['application', 'notifier', 'account', 'relay-device-token'];
const LABEL = 'Notifier: device token of the cloud relay';

describe('the device token in the desktop Secret Service (gnome-keyring), with the real relay', () => {
  const relay = useRelay({ backend: 'sqlite' });
  const supportDir = tempFolderSync();
  let keyring: Keyring;
  let daemon: DaemonProcess;

  beforeAll(async () => {
    keyring = await startKeyring();
    daemon = await startDaemon({ supportDir, env: keyring.env });
  }, 30_000);

  afterAll(async () => {
    await daemon?.stop();
    await keyring?.stop();
  });

  const relayCLI = async (...args: string[]) => {
    const run = await runProgram(process.execPath, [CLI, 'relay', ...args], { env: { NOTIFIER_SUPPORT_DIR: supportDir } });
    expect([run.code, run.stderr]).toEqual([0, '']);
    return { json: JSON.parse(run.stdout), text: run.stdout };
  };
  const status = async () => (await relayCLI('status')).json;
  const online = () => eventually(async () => (await status()).online === true, 'the socket to be online');
  const restartDaemon = async () => {
    await daemon.stop();
    daemon = await startDaemon({ supportDir, env: keyring.env });
  };
  const tokenFile = () => path.join(supportDir, 'secrets', 'relay-device-token');
  /** The daemon's items in the keyring as `secret-tool search --all` prints them: label and secret of each. */
  const items = async () => {
    const found = await keyring.secretTool('search', '--all', ...ATTRIBUTES);
    expect(found.code).toBe(0);
    const printed = `${found.stdout}\n${found.stderr}`;
    return [...printed.matchAll(/^label = (.*)\n(?:.*\n)*?secret = (.*)$/gm)].map(([, label, secret]) => ({ label, secret }));
  };
  /** Whether the relay takes this token (its list of this computer's entries). */
  const relayTakes = async (token: string) => (await relay().call('GET', '/v1/device/devices', { token })).status === 200;
  /** Every file of the support folder that holds `text` (a durable write's temporary file may be renamed away first). */
  const filesHolding = async (text: string) => {
    const files = (await readdir(supportDir, { recursive: true })).map((name) => path.join(supportDir, name));
    const texts = await Promise.all(files.map((file) => readFile(file, 'utf8').catch(() => '')));
    return files.filter((_, index) => texts[index]!.includes(text));
  };

  let token = '';

  test('notifier relay pair: the token is in the login keyring, nowhere in the support folder; the status says secret-service', async () => {
    const paired = (await relayCLI('pair', relay().baseUrl)).json;
    expect(paired).toEqual({ paired: true, deviceId: expect.stringMatching(/^[0-9a-f]{48}$/) });
    await online();
    expect(await status()).toMatchObject({ paired: true, state: 'online', deviceId: paired.deviceId, tokenStore: 'secret-service' });
    // A second client of the keyring finds the item, and its secret is the device token the relay takes.
    const kept = await items();
    expect(kept).toEqual([{ label: LABEL, secret: expect.stringMatching(/^hrd_[0-9a-f]{48}_[0-9a-f]{64}$/) }]);
    token = kept[0]!.secret;
    const lookup = await keyring.secretTool('lookup', ...ATTRIBUTES);
    expect([lookup.code, lookup.stdout]).toEqual([0, token]);
    expect(await relayTakes(token)).toBe(true);
    // Not in the support folder (no token file, no file holding it), and no route, command or log line shows it.
    expect(await exists(tokenFile())).toBe(false);
    expect(await filesHolding('hrd_')).toEqual([]);
    expect((await relayCLI('status')).text).not.toContain('hrd_');
    expect(JSON.stringify((await daemon.api('GET', '/v1/relay/keys')).json)).not.toContain('hrd_');
    expect(daemon.log()).not.toContain('hrd_');
  });

  test('the daemon started again reads the token from the keyring and comes back online', async () => {
    await restartDaemon();
    await online();
    expect(await status()).toMatchObject({ state: 'online', tokenStore: 'secret-service' });
    const { devices } = (await relay().call('GET', '/v1/device/devices', { token })).json;
    expect(devices).toEqual([expect.objectContaining({ online: true, thisDevice: true })]);
  });

  test('a locked keyring at start: `starting`, waiting for it with the reason (not `rejected`); unlocked, the daemon comes online by itself', async () => {
    await keyring.lock();
    await restartDaemon();
    const waiting = await eventually(async () => ((await status()).problem ? status() : undefined), 'the status to say why');
    expect(waiting).toMatchObject({ paired: true, state: 'starting', online: false, tokenStore: 'secret-service' });
    expect(waiting.problem).toBe('the keyring that holds the device token cannot be read: the keyring is locked');
    expect(Date.parse(waiting.nextAttemptAt)).toBeGreaterThan(Date.now() - 1000);
    expect(await exists(tokenFile())).toBe(false);
    // The relay cannot be called without the token: a clear 503, not "rejected, pair again"; unpairing needs force.
    const unavailable = [503, 'the device token cannot be read now: the keyring is locked (it is read again once it can be)'];
    const keys = await daemon.api('GET', '/v1/relay/keys');
    expect([keys.status, keys.json.error]).toEqual(unavailable);
    const unpaired = await daemon.api('POST', '/v1/relay/unpair', { body: {} });
    expect([unpaired.status, unpaired.json.error]).toEqual(unavailable);
    expect(await status()).toMatchObject({ paired: true, state: 'starting' });
    await keyring.unlock();
    await online();
    expect(await status()).toMatchObject({ state: 'online', tokenStore: 'secret-service' });
    expect((await status()).problem).toBeUndefined();
  }, 30_000);

  test('no Secret Service at start (the keyring went away): waiting the same way; back, the daemon comes online', async () => {
    await daemon.stop();
    await keyring.goAway();
    daemon = await startDaemon({ supportDir, env: keyring.env });
    const waiting = await eventually(async () => ((await status()).problem ? status() : undefined), 'the status to say why');
    expect(waiting).toMatchObject({
      state: 'starting',
      problem: 'the keyring that holds the device token cannot be read: there is no Secret Service on the session bus',
    });
    await keyring.comeBack();
    await online();
    expect(await items()).toEqual([{ label: LABEL, secret: token }]);
  }, 30_000);

  test('notifier relay unpair deletes the keyring item, and the relay forgets the token', async () => {
    expect((await relayCLI('unpair')).json).toEqual({ unpaired: true });
    expect(await items()).toEqual([]);
    expect(await relayTakes(token)).toBe(false);
    expect(await status()).toMatchObject({ paired: false, state: 'unpaired' });
    expect(await exists(tokenFile())).toBe(false);
  });

  test('a keyring locked when unpairing keeps its item; pairing while it is locked uses the 0600 file, which is then read, not the stale item; pairing with it unlocked replaces the item', async () => {
    await relayCLI('pair', relay().baseUrl);
    await online();
    const [first] = await items();
    await keyring.lock();
    expect((await relayCLI('unpair')).json).toEqual({ unpaired: true });
    expect(daemon.log()).toContain(`the keyring is locked: its item "${LABEL}" stays there (the next pairing replaces it)`);
    // Locked: the new token goes to the file.
    await relayCLI('pair', relay().baseUrl);
    await online();
    expect(await status()).toMatchObject({ tokenStore: 'file' });
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    const fromFile = (await readFile(tokenFile(), 'utf8')).trim();
    // Unlocked again, the keyring still holds the first token, which the relay no longer takes; the daemon started
    // again reads the token where the pairing put it, the file, and comes online with it.
    await keyring.unlock();
    expect(await items()).toEqual([first]);
    expect(await relayTakes(first!.secret)).toBe(false);
    await restartDaemon();
    await online();
    expect(await status()).toMatchObject({ state: 'online', tokenStore: 'file' });
    expect(await relayTakes(fromFile)).toBe(true);
    // Pairing now, with the keyring open: one item with the new token, and no file.
    await relayCLI('pair', relay().baseUrl);
    await online();
    const [latest, ...others] = await items();
    expect(others).toEqual([]);
    expect(latest!.secret).not.toBe(first!.secret);
    expect(await relayTakes(latest!.secret)).toBe(true);
    expect(await exists(tokenFile())).toBe(false);
    expect((await relayCLI('unpair')).json).toEqual({ unpaired: true });
    expect(await items()).toEqual([]);
  }, 30_000);

  test('pairing while the daemon waits for a locked keyring ends the wait: the new token goes to the file, online', async () => {
    await relayCLI('pair', relay().baseUrl);
    await online();
    await keyring.lock();
    await restartDaemon();
    await eventually(async () => (await status()).problem?.includes('the keyring is locked'), 'the wait for the keyring');
    await relayCLI('pair', relay().baseUrl);
    await online();
    const paired = await status();
    expect(paired).toMatchObject({ state: 'online', tokenStore: 'file' });
    expect(paired.problem).toBeUndefined();
    await keyring.unlock();
    expect((await relayCLI('unpair')).json).toEqual({ unpaired: true });
    expect(await items()).toEqual([]);
    expect(await exists(tokenFile())).toBe(false);
  }, 30_000);
});
