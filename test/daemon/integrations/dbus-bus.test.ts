// How the daemon and the tray reach D-Bus (docs/desktop.md, "How the daemon and the tray reach D-Bus"): every
// address in dbus-next's `unix:socket=` form, opened with Node's own sockets, so usocket — whose handles can abort
// the process on Node 24 — is never loaded. Real buses: private dbus-daemons listening on a path and on an abstract
// name, and the built module in a Node process of its own, whose loaded modules the test reads.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startSessionBus } from '../../../rigs/session-bus.js';
import { NODE_OPENS_ABSTRACT_NAMES, throughNodeSockets } from '../../../daemon/integrations/dbus-bus.js';
import { ROOT } from '../../helpers/daemon.js';
import { runProgram } from '../../helpers/process.js';

const BUS_MODULE = path.join(ROOT, 'dist', 'daemon', 'integrations', 'dbus-bus.js');

test('unix:path and unix:abstract entries become unix:socket ones; others, and their order, stay', () => {
  expect(throughNodeSockets('unix:path=/run/user/1000/bus')).toBe('unix:socket=/run/user/1000/bus');
  const abstract = 'unix:abstract=/tmp/dbus-XYZ,guid=0123abcd';
  expect(throughNodeSockets(abstract)).toBe(NODE_OPENS_ABSTRACT_NAMES ? 'unix:socket=\0/tmp/dbus-XYZ' : abstract);
  expect(throughNodeSockets('tcp:host=localhost,port=1234;unix:path=/tmp/b')).toBe('tcp:host=localhost,port=1234;unix:socket=/tmp/b');
  expect(throughNodeSockets('unix:socket=/tmp/s')).toBe('unix:socket=/tmp/s');
  expect(throughNodeSockets('unix:tmpdir=/tmp')).toBe('unix:tmpdir=/tmp'); // a server's address, left for dbus-next to refuse
});

describe('connecting to real buses', () => {
  let pathBus: Awaited<ReturnType<typeof startSessionBus>>;
  let abstractBus: ChildProcess;
  let abstractAddress: string;

  beforeAll(async () => {
    pathBus = await startSessionBus();
    const name = `notifier-test-${randomBytes(8).toString('hex')}`;
    abstractBus = spawn('dbus-daemon', ['--session', '--nofork', `--address=unix:abstract=${name}`, '--print-address=1'], {
      stdio: ['ignore', 'pipe', 'ignore'], // the session configuration's fd limit fails unprivileged, harmlessly
    });
    abstractAddress = await new Promise<string>((resolve, reject) => {
      abstractBus.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      abstractBus.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
    });
  }, 20_000);

  afterAll(async () => {
    await pathBus?.stop();
    if (abstractBus && abstractBus.exitCode === null) {
      const exited = new Promise((resolve) => abstractBus.once('exit', resolve));
      abstractBus.kill('SIGTERM');
      await exited;
    }
  });

  /** In a process of its own: connects to the bus at `address`, asks it its names, and says whether usocket was loaded. */
  const connectFromNode = async (address: string) => {
    const script = `
      import { createRequire } from 'node:module';
      import { sessionBus } from ${JSON.stringify(BUS_MODULE)};
      const bus = sessionBus(process.env.BUS);
      const daemon = (await bus.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus')).getInterface('org.freedesktop.DBus');
      const names = await daemon.ListNames();
      bus.disconnect();
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/node_modules/usocket/'));
      console.log(JSON.stringify({ hasBusName: names.includes('org.freedesktop.DBus'), loaded }));`;
    const run = await runProgram(process.execPath, ['--input-type=module', '-e', script], { env: { BUS: address } });
    expect([run.code, run.stderr]).toEqual([0, '']);
    return JSON.parse(run.stdout);
  };

  test('a bus at a unix:path address answers, and usocket is never loaded', async () => {
    expect(pathBus.address).toMatch(/^unix:path=/);
    expect(await connectFromNode(pathBus.address)).toEqual({ hasBusName: true, loaded: [] });
  });

  // Node 24 opens abstract names itself; Node 20 cannot (its libuv pads the name), and usocket does it there.
  test(`a bus at a unix:abstract address answers, ${NODE_OPENS_ABSTRACT_NAMES ? 'and usocket is never loaded' : 'through usocket'}`, async () => {
    expect(abstractAddress).toMatch(/^unix:abstract=/);
    const { hasBusName, loaded } = await connectFromNode(abstractAddress);
    expect([hasBusName, loaded.length > 0]).toEqual([true, !NODE_OPENS_ABSTRACT_NAMES]);
  });
});
