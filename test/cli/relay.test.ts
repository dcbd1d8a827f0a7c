import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { CLI, type DaemonProcess, startDaemon } from '../helpers/daemon.js';
import { freePort } from '../helpers/http.js';
import { eventually } from '../helpers/in-process.js';
import { runProgram } from '../helpers/process.js';
import { type RelayProcess, startRelay } from '../helpers/relay.js';

// `notifier relay ...` as a person meets it (docs/cli.md#relay): the built CLI against the built daemon and the
// relay of this repository, each its own process. What to type when an address is wrong, when the computer is
// not paired, and why the relay cannot be reached, in words rather than the system's codes.

/** No Secret Service: the device token goes to a 0600 file (docs/relay-desktop.md). */
const NO_SESSION_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/notifier-test-bus' };

describe('notifier relay, as people meet it', () => {
  let daemon: DaemonProcess;
  let relay: RelayProcess;

  beforeAll(async () => {
    [daemon, relay] = await Promise.all([startDaemon({ env: NO_SESSION_BUS }), startRelay({ backend: 'sqlite' })]);
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    await relay?.stop();
  });

  const relayCLI = (...args: string[]) =>
    runProgram(process.execPath, [CLI, 'relay', ...args], { env: { NOTIFIER_SUPPORT_DIR: daemon.supportDir } });
  const status = async () => (await daemon.api('GET', '/v1/relay/status')).json;

  test.each([
    [
      'http://example.org',
      "http://example.org is not a relay's address: http:// is only for a relay on this computer (localhost, 127.0.0.1, [::1]): the device token must not cross a network in clear text; use https://example.org",
    ],
    [
      'relay.example.org',
      "relay.example.org is not a relay's address: the address needs https:// (or http:// for a relay on this computer): did you mean https://relay.example.org?",
    ],
    [
      '127.0.0.1:8787',
      "127.0.0.1:8787 is not a relay's address: the address needs https:// (or http:// for a relay on this computer): did you mean http://127.0.0.1:8787?",
    ],
    [
      'https://me:secret@relay.example.org/?x=1',
      "https://me:secret@relay.example.org/?x=1 is not a relay's address: the address takes no user name, password, query or fragment: https://relay.example.org",
    ],
  ])('relay pair %s: exit 1, what to type instead, nothing sent', async (given, message) => {
    const result = await relayCLI('pair', given);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `notifier: ${message}\nRun 'notifier help relay pair' for usage.\n`,
    });
    expect((await status()).paired).toBe(false);
  });

  test('the pairing route words its 400 the same way, for every caller', async () => {
    const reply = await daemon.api('POST', '/v1/relay/pair', { body: { relayURL: 'relay.example.org' } });
    expect([reply.status, reply.json]).toEqual([
      400,
      {
        error:
          'invalid field: relayURL (the address needs https:// (or http:// for a relay on this computer): did you mean https://relay.example.org?)',
        code: 'invalid_field',
        field: 'relayURL',
        reason: 'the address needs https:// (or http:// for a relay on this computer): did you mean https://relay.example.org?',
      },
    ]);
  });

  test('a relay that is not there: "cannot reach the relay at <url> (connection refused)"', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const result = await relayCLI('pair', nowhere);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: `cannot reach the relay at ${nowhere} (connection refused)`,
      code: 'relay_unreachable',
    });
  });

  test('relay instructions say where the 6-digit code really is: on the banner that asks, and in the tray menu', async () => {
    expect((await relayCLI('pair', relay.baseUrl)).code).toBe(0);
    for (const client of ['chatgpt', 'claude']) {
      const { code, stdout } = await relayCLI('instructions', client);
      expect([client, code]).toEqual([client, 0]);
      expect(stdout).toContain(
        'Notifier then shows a banner on your computer asking to let it send you notifications: choose Approve. ' +
          'Or type its 6-digit code, which that banner, Notifier’s tray menu and the Approvals page of its window show, on the relay’s page.',
      );
      expect(stdout).not.toMatch(/settings/);
    }
  });

  test('after unpairing, the commands that need a pairing say what to type: notifier relay pair <relay-url>', async () => {
    expect((await relayCLI('pair', relay.baseUrl)).code).toBe(0);
    expect((await relayCLI('unpair')).code).toBe(0);
    for (const words of [['keys'], ['keys', 'create', 'build-bot'], ['connectors'], ['instructions', 'claude']]) {
      const result = await relayCLI(...words);
      expect([words, result.code]).toEqual([words, 1]);
      expect(JSON.parse(result.stdout).error).toBe(
        'not paired with a relay: pair this computer first with notifier relay pair <relay-url> (POST /v1/relay/pair)',
      );
    }
  });

  test("the status's problem, once the relay is gone: cannot reach the relay at <url> (connection refused)", async () => {
    expect((await relayCLI('pair', relay.baseUrl)).code).toBe(0);
    await eventually(async () => (await status()).online === true, 'the socket to be online');
    await relay.stop();
    const offline = await eventually(async () => {
      const now = await status();
      return now.problem?.includes('refused') ? now : undefined;
    }, 'the status to say why');
    expect(offline).toMatchObject({
      paired: true,
      online: false,
      problem: `cannot reach the relay at ${relay.baseUrl} (connection refused)`,
    });
    const shown = await relayCLI('status');
    expect(JSON.parse(shown.stdout).problem).toBe(`cannot reach the relay at ${relay.baseUrl} (connection refused)`);
  });
});
