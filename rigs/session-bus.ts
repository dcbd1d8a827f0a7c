import { type ChildProcess, spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import dbus from 'dbus-next';
import { sessionBus } from '../daemon/integrations/dbus-bus.js';

// Shared by the tests and the benchmarks: no test framework in here.

/**
 * A private D-Bus session bus for a test, with its own minimal configuration: no service files, so nothing is
 * ever activated on it (a real dunst would start otherwise). Stopped by PID.
 */
export async function startSessionBus(options: { policy?: string } = {}): Promise<{ address: string; stop(): Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'notifier-bus-'));
  const socket = path.join(folder, 'bus');
  const config = path.join(folder, 'session.conf');
  await writeFile(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>${options.policy ? `\n    ${options.policy}` : ''}
  </policy>
</busconfig>
`,
  );
  const daemon: ChildProcess = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async (): Promise<void> => {
    if (daemon.exitCode === null && daemon.signalCode === null) {
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  };
  const address = await new Promise<string>((resolve, reject) => {
    let text = '';
    daemon.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    daemon.once('error', reject);
    daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
  }).catch(async (error: unknown) => {
    await stop(); // a bus that did not come up leaves no folder behind
    throw error;
  });
  return { address, stop };
}

export interface NotifyCall {
  /** The id the server gave the banner. */
  id: number;
  appName: string;
  replacesId: number;
  icon: string;
  summary: string;
  body: string;
  actions: string[];
  hints: Record<string, unknown>;
  timeout: number;
  at: number;
}

/** A notification server of our own on a private bus: it records every call and lets the test act as the person. */
export async function startFakeNotificationServer(address: string, capabilities: string[] = ['actions', 'body', 'body-markup']) {
  const bus = sessionBus(address);
  const calls: NotifyCall[] = [];
  const closed: number[] = [];
  let nextId = 1;

  class Notifications extends dbus.interface.Interface {
    Notify(
      appName: string,
      replacesId: number,
      icon: string,
      summary: string,
      body: string,
      actions: string[],
      hints: Record<string, dbus.Variant>,
      timeout: number,
    ): number {
      const plainHints = Object.fromEntries(Object.entries(hints).map(([key, value]) => [key, value.value]));
      const id = replacesId || nextId++;
      calls.push({ id, appName, replacesId, icon, summary, body, actions, hints: plainHints, timeout, at: performance.now() });
      return id;
    }
    CloseNotification(id: number): void {
      closed.push(id);
      this.NotificationClosed(id, 3);
    }
    GetCapabilities(): string[] {
      return capabilities;
    }
    GetServerInformation(): string[] {
      return ['fake', 'notifier-tests', '1', '1.2'];
    }
    ActionInvoked(id: number, action: string): unknown[] {
      return [id, action];
    }
    NotificationClosed(id: number, reason: number): unknown[] {
      return [id, reason];
    }
    NotificationReplied(id: number, text: string): unknown[] {
      return [id, text];
    }
  }
  Notifications.configureMembers({
    methods: {
      Notify: { inSignature: 'susssasa{sv}i', outSignature: 'u' },
      CloseNotification: { inSignature: 'u', outSignature: '' },
      GetCapabilities: { inSignature: '', outSignature: 'as' },
      GetServerInformation: { inSignature: '', outSignature: 'ssss' },
    },
    signals: { ActionInvoked: { signature: 'us' }, NotificationClosed: { signature: 'uu' }, NotificationReplied: { signature: 'us' } },
  });
  const server = new Notifications('org.freedesktop.Notifications');
  bus.export('/org/freedesktop/Notifications', server);
  await bus.requestName('org.freedesktop.Notifications', 0);
  return {
    calls,
    closed,
    /** The person presses an action (or clicks: `default`). */
    invoke: (id: number, action: string) => server.ActionInvoked(id, action),
    /** The person typed into the server's own reply field (servers with `inline-reply`). */
    replyInline: (id: number, text: string) => server.NotificationReplied(id, text),
    /** The server closes a banner: 1 expired, 2 dismissed by the person. */
    close: (id: number, reason: number) => server.NotificationClosed(id, reason),
    stop: async () => bus.disconnect(),
  };
}
