// Other programs' notifications, watched on the session bus without taking part (docs/desktop.md, "Every desktop
// notification in History"). A connection of its own becomes a monitor (org.freedesktop.DBus.Monitoring,
// BecomeMonitor) for the `Notify` calls to the notification server, the server's answers to them (the id it gives
// each banner), its `NotificationClosed` and `ActionInvoked` signals, and a change of the server itself. Only the
// bus is used, so it works whatever the server is (GNOME Shell, Plasma, dunst, mako, xfce4-notifyd).
//
// A monitor must never send: the bus drops one that does. dbus-next answers a method call nobody serves with an
// error, so every call this connection sees is taken by a handler that does nothing. The bus copies the messages to
// the monitor; nothing a program sends waits for Notifier.

import dbus from 'dbus-next';
import { setUpOnBus } from './dbus-bus.js';

const SERVICE = 'org.freedesktop.Notifications';
const BUS = 'org.freedesktop.DBus';
/** How long opening the monitor may take before it is given up (the bus answers in milliseconds). */
const CONNECT_TIMEOUT_MS = 5_000;

/** A `Notify` call as another program made it (the specification's arguments, and the hints this reads). */
export interface NotifyCall {
  appName: string;
  replacesId: number;
  appIcon: string;
  summary: string;
  body: string;
  /** Pairs of action key and label, as sent. */
  actions: string[];
  hints: NotifyHints;
  expireTimeout: number;
}

export interface NotifyHints {
  urgency?: number;
  category?: string;
  desktopEntry?: string;
  imagePath?: string;
  /** `image-data` (or the older `image_data`, `icon_data`): raw pixels. */
  imageData?: RawImage;
}

/** The specification's raw image: width, height, row stride, alpha or not, bits per sample, channels, bytes. */
export interface RawImage {
  width: number;
  height: number;
  rowStride: number;
  hasAlpha: boolean;
  bitsPerSample: number;
  channels: number;
  data: Buffer;
}

export type ObservedEvent =
  /** A program asked for a banner; `sender` and `serial` pair it with the server's answer. */
  | { type: 'notify'; sender: string; serial: number; call: NotifyCall }
  /** The server answered the call `serial` of `to` with the banner's id. */
  | { type: 'answered'; to: string; serial: number; id: number }
  /** The server closed a banner: 1 expired, 2 dismissed by the person, 3 closed by a program, 4 otherwise. */
  | { type: 'closed'; id: number; reason: number }
  /** The person chose an action on a banner. */
  | { type: 'action'; id: number; key: string };

export interface MonitorOptions {
  /** The session bus (the environment's, else the user's). */
  address?: string;
  onEvent(event: ObservedEvent): void;
  /** The monitor ended by itself (the bus went away, or the notification server changed): why. */
  onEnd(reason: string): void;
}

/** A monitor that is watching; or why the bus would not let one watch. */
export type MonitorStart = { monitor: NotificationMonitor } | { refused: string };

export class NotificationMonitor {
  private ended = false;

  private constructor(
    private readonly bus: dbus.MessageBus,
    private readonly options: MonitorOptions,
  ) {}

  /**
   * Opens a connection, finds the notification server's name (its answers are watched by sender) and becomes a
   * monitor. Refused, with the bus's own words, where the bus does not allow monitoring.
   */
  static async start(options: MonitorOptions): Promise<MonitorStart> {
    const opened = await setUpOnBus(
      'session',
      async (bus) => {
        const server = await nameOwner(bus, SERVICE);
        bus.addMethodHandler(() => true); // a monitor never answers (see above)
        await bus.call(
          new dbus.Message({
            destination: BUS,
            path: '/org/freedesktop/DBus',
            interface: 'org.freedesktop.DBus.Monitoring',
            member: 'BecomeMonitor',
            signature: 'asu',
            body: [matchRules(server), 0],
          }),
        );
      },
      { timeoutMs: CONNECT_TIMEOUT_MS, ...(options.address ? { address: options.address } : {}) },
    );
    if ('failed' in opened) return { refused: opened.failed };
    const monitor = new NotificationMonitor(opened.bus, options);
    monitor.listen();
    return { monitor };
  }

  close(): void {
    this.ended = true;
    this.bus.disconnect();
  }

  private listen(): void {
    this.bus.on('message', (message: dbus.Message) => {
      const event = readMessage(message);
      if (event === 'server-changed') this.end('the notification server changed');
      else if (event) this.options.onEvent(event);
    });
    this.bus.on('error', (error: Error) => this.end(`the session bus failed (${error.message})`));
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.close();
    this.options.onEnd(reason);
  }
}

/**
 * What the monitor watches. The server's answers are matched by their sender, which needs the server's unique name:
 * when the server is not running yet (it starts on the first `Notify`), or another takes its place, the monitor
 * sees it through NameOwnerChanged and starts again with the new name.
 */
function matchRules(server: string | undefined): string[] {
  return [
    `type='method_call',interface='${SERVICE}',member='Notify'`,
    `type='signal',interface='${SERVICE}',member='NotificationClosed'`,
    `type='signal',interface='${SERVICE}',member='ActionInvoked'`,
    `type='signal',sender='${BUS}',interface='${BUS}',member='NameOwnerChanged',arg0='${SERVICE}'`,
    ...(server ? [`type='method_return',sender='${server}'`] : []),
  ];
}

async function nameOwner(bus: dbus.MessageBus, name: string): Promise<string | undefined> {
  const answer = await bus
    .call(
      new dbus.Message({
        destination: BUS,
        path: '/org/freedesktop/DBus',
        interface: BUS,
        member: 'GetNameOwner',
        signature: 's',
        body: [name],
      }),
    )
    .catch(() => null); // no owner yet
  return typeof answer?.body[0] === 'string' ? answer.body[0] : undefined;
}

/** One message the monitor saw, read; undefined for anything else (a malformed call is skipped, never thrown). */
function readMessage(message: dbus.Message): ObservedEvent | 'server-changed' | undefined {
  const { type, member, body } = message;
  if (type === dbus.MessageType.METHOD_CALL && member === 'Notify' && message.signature === 'susssasa{sv}i') {
    return { type: 'notify', sender: message.sender ?? '', serial: message.serial ?? 0, call: readNotify(body) };
  }
  if (type === dbus.MessageType.METHOD_RETURN && message.signature === 'u') {
    return { type: 'answered', to: message.destination ?? '', serial: Number(message.replySerial), id: Number(body[0]) };
  }
  if (type !== dbus.MessageType.SIGNAL) return undefined;
  if (member === 'NotificationClosed' && message.signature === 'uu')
    return { type: 'closed', id: Number(body[0]), reason: Number(body[1]) };
  if (member === 'ActionInvoked' && message.signature === 'us') return { type: 'action', id: Number(body[0]), key: String(body[1]) };
  if (member === 'NameOwnerChanged') return 'server-changed';
  return undefined;
}

function readNotify(body: unknown[]): NotifyCall {
  const [appName, replacesId, appIcon, summary, text, actions, hints, expireTimeout] = body as [
    string,
    number,
    string,
    string,
    string,
    string[],
    Record<string, dbus.Variant>,
    number,
  ];
  return { appName, replacesId, appIcon, summary, body: text, actions, hints: readHints(hints), expireTimeout };
}

function readHints(hints: Record<string, dbus.Variant>): NotifyHints {
  const value = (key: string, signature: string): unknown =>
    hints[key]?.signature === signature ? (hints[key]!.value as unknown) : undefined;
  const text = (key: string): string | undefined => {
    const found = value(key, 's');
    return typeof found === 'string' && found !== '' ? found : undefined;
  };
  const urgency = value('urgency', 'y');
  const image = ['image-data', 'image_data', 'icon_data'].map((key) => value(key, '(iiibiiay)')).find(Boolean);
  return {
    ...(typeof urgency === 'number' ? { urgency } : {}),
    ...(text('category') ? { category: text('category') } : {}),
    ...(text('desktop-entry') ? { desktopEntry: text('desktop-entry') } : {}),
    ...((text('image-path') ?? text('image_path')) ? { imagePath: text('image-path') ?? text('image_path') } : {}),
    ...(image ? { imageData: readRawImage(image as unknown[]) } : {}),
  };
}

function readRawImage([width, height, rowStride, hasAlpha, bitsPerSample, channels, data]: unknown[]): RawImage {
  return {
    width: Number(width),
    height: Number(height),
    rowStride: Number(rowStride),
    hasAlpha: Boolean(hasAlpha),
    bitsPerSample: Number(bitsPerSample),
    channels: Number(channels),
    data: Buffer.isBuffer(data) ? data : Buffer.from(data as number[]),
  };
}
