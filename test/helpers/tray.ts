import { readFileSync } from 'node:fs';
import dbus from 'dbus-next';
import { sessionBus } from '../../daemon/integrations/dbus-bus.js';
import type { Desktop } from './desktop.js';
import { waitFor } from './daemon.js';

/** The bus names StatusNotifierItems take: `org.kde.StatusNotifierItem-<pid>-<n>`. */
const ITEM_NAME_PREFIX = 'org.kde.StatusNotifierItem-';
const ITEM_PATH = '/StatusNotifierItem';
const WATCHER = 'org.kde.StatusNotifierWatcher';

export interface TrayEntry {
  id: number;
  /** The label as a panel draws it ("__" shows one underscore). Empty for a separator. */
  label: string;
  /** `separator` for a separator line; absent for an item. */
  type?: string;
  /** dbusmenu leaves out properties at their defaults: visible and enabled are then true. */
  visible: boolean;
  enabled: boolean;
  /** `checkmark` or `radio` for an item that shows a check state; absent for a plain item. */
  toggleType?: string;
  toggleState?: number;
}

export interface TrayOnBus {
  /** The bus name the item took. */
  busName: string;
  /** The StatusNotifierItem's properties (Id, Title, IconPixmap, ToolTip, Status, Menu, ...), as a panel reads them. */
  item(): Promise<Record<string, any>>;
  /** The menu's entries, separators included, read with com.canonical.dbusmenu.GetLayout. */
  entries(): Promise<TrayEntry[]>;
  /** Clicks an entry, as a panel does when the person chooses it. */
  click(id: number): Promise<void>;
  /** The ids of the entries each ItemsPropertiesUpdated signal named so far, and the LayoutUpdated signals' count. */
  signals: { updated: number[][]; layouts: number };
  close(): void;
}

/** The parent of a process, from /proc. */
const parentOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);

/** Whether `pid` descends from `ancestor` (the tray companion from the daemon). */
function descends(pid: number, ancestor: number): boolean {
  try {
    for (let up = parentOf(pid); up > 1; up = parentOf(up)) if (up === ancestor) return true;
  } catch {
    // the process is gone
  }
  return false;
}

/** What a panel draws for a dbusmenu label: "__" is one underscore, a lone "_" marks the access key and is dropped. */
const drawn = (label: string): string => label.replace(/__|_/g, (match) => (match === '__' ? '_' : ''));

/**
 * The tray of the daemon whose process is `daemonPid`: its StatusNotifierItem found on the desktop's bus by the
 * process that owns it, read and clicked over D-Bus as a panel would (the menu at the item's `Menu` path). Waits
 * until it is on the bus.
 */
export async function trayOnBus(desktop: Desktop, daemonPid: number): Promise<TrayOnBus> {
  const bus = sessionBus(desktop.env.DBUS_SESSION_BUS_ADDRESS);
  try {
    const owner = (await bus.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus')).getInterface('org.freedesktop.DBus');
    const busName = await waitFor(async () => {
      for (const name of ((await owner.ListNames()) as string[]).filter((n) => n.startsWith(ITEM_NAME_PREFIX))) {
        const pid = (await owner.GetConnectionUnixProcessID(name).catch(() => 0)) as number;
        if (pid && descends(pid, daemonPid)) return name;
      }
      return undefined;
    }, 'the tray on the bus');
    const item = await bus.getProxyObject(busName, ITEM_PATH);
    const properties = item.getInterface('org.freedesktop.DBus.Properties');
    const menuPath = ((await properties.Get('org.kde.StatusNotifierItem', 'Menu')) as dbus.Variant).value as string;
    const menu = (await bus.getProxyObject(busName, menuPath)).getInterface('com.canonical.dbusmenu');
    const signals = { updated: [] as number[][], layouts: 0 };
    menu.on('ItemsPropertiesUpdated', (updated: Array<[number, unknown]>) => signals.updated.push(updated.map(([id]) => id)));
    menu.on('LayoutUpdated', () => signals.layouts++);
    return {
      busName,
      async item() {
        const all = (await properties.GetAll('org.kde.StatusNotifierItem')) as Record<string, dbus.Variant>;
        return Object.fromEntries(Object.entries(all).map(([key, variant]) => [key, variant.value]));
      },
      async entries() {
        const [, layout] = (await menu.GetLayout(0, -1, [])) as [number, [number, unknown, dbus.Variant[]]];
        return layout[2].map((child) => {
          const [id, p] = child.value as [number, Record<string, dbus.Variant>];
          return {
            id,
            label: drawn((p.label?.value as string | undefined) ?? ''),
            ...(p.type ? { type: p.type.value as string } : {}),
            visible: (p.visible?.value as boolean | undefined) ?? true,
            enabled: (p.enabled?.value as boolean | undefined) ?? true,
            ...(p['toggle-type'] ? { toggleType: p['toggle-type'].value as string } : {}),
            ...(p['toggle-state'] ? { toggleState: p['toggle-state'].value as number } : {}),
          };
        });
      },
      async click(id) {
        await menu.Event(id, 'clicked', new dbus.Variant('s', ''), 0);
      },
      signals,
      close: () => bus.disconnect(),
    };
  } catch (error) {
    bus.disconnect();
    throw error;
  }
}

/** A panel's org.kde.StatusNotifierWatcher, as KDE Plasma or xfce4-panel runs it: it lists the items that register. */
class Watcher extends dbus.interface.Interface {
  readonly items: string[] = [];

  constructor() {
    super(WATCHER);
  }

  get RegisteredStatusNotifierItems(): string[] {
    return this.items;
  }
  get IsStatusNotifierHostRegistered(): boolean {
    return true;
  }
  get ProtocolVersion(): number {
    return 0;
  }

  RegisterStatusNotifierItem(service: string): void {
    this.items.push(service);
  }
  RegisterStatusNotifierHost(): void {}
}

Watcher.configureMembers({
  properties: {
    RegisteredStatusNotifierItems: { signature: 'as', access: 'read' },
    IsStatusNotifierHostRegistered: { signature: 'b', access: 'read' },
    ProtocolVersion: { signature: 'i', access: 'read' },
  },
  methods: { RegisterStatusNotifierItem: { inSignature: 's' }, RegisterStatusNotifierHost: { inSignature: 's' } },
});

/** A StatusNotifierWatcher on the desktop's bus, taking the name now; `stop` lets it go, as a panel that quits. */
export async function startWatcher(desktop: Desktop): Promise<{ registered: string[]; stop(): void }> {
  const bus = sessionBus(desktop.env.DBUS_SESSION_BUS_ADDRESS);
  const watcher = new Watcher();
  bus.export('/StatusNotifierWatcher', watcher);
  await bus.requestName(WATCHER, dbus.NameFlag.DO_NOT_QUEUE);
  return { registered: watcher.items, stop: () => bus.disconnect() };
}
