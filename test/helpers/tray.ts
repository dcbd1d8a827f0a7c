import { readFileSync, readlinkSync } from 'node:fs';
import dbus from 'dbus-next';
import type { Desktop } from './desktop.js';
import { waitFor } from './daemon.js';

/** Where libappindicator puts the tray binary's StatusNotifierItem and its menu (the item's id is in the path). */
const ITEM_PATH = '/org/ayatana/NotificationItem/systray';
const MENU_PATH = `${ITEM_PATH}/Menu`;

export interface TrayEntry {
  id: number;
  label: string;
  /** dbusmenu leaves out properties at their defaults: visible and enabled are then true. */
  visible: boolean;
  enabled: boolean;
  /** `checkmark` or `radio` for an item that shows a check state; absent for a plain item. */
  toggleType?: string;
  toggleState?: number;
}

export interface TrayOnBus {
  /** The StatusNotifierItem's properties (Id, Title, IconName, Status, ...), as a panel reads them. */
  item(): Promise<Record<string, unknown>>;
  /** The menu's entries, separators included, read with com.canonical.dbusmenu.GetLayout. */
  entries(): Promise<TrayEntry[]>;
  /** Clicks an entry, as a panel does when the person chooses it. */
  click(id: number): Promise<void>;
  close(): void;
}

/** The parent of a process, from /proc. */
const parentOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);

/** Whether `pid` runs the tray binary and descends from `ancestor` (the daemon, through the tray companion). */
function trayOf(pid: number, ancestor: number): boolean {
  try {
    if (!readlinkSync(`/proc/${pid}/exe`).endsWith('tray_linux_release')) return false;
    for (let up = parentOf(pid); up > 1; up = parentOf(up)) if (up === ancestor) return true;
  } catch {
    // the process is gone
  }
  return false;
}

/**
 * The tray of the daemon whose process is `daemonPid`, found on the desktop's bus by its binary's process and read
 * and clicked over D-Bus as a panel would. Waits until its menu is on the bus.
 */
export async function trayOnBus(desktop: Desktop, daemonPid: number): Promise<TrayOnBus> {
  const bus = dbus.sessionBus({ busAddress: desktop.env.DBUS_SESSION_BUS_ADDRESS });
  try {
    const owner = (await bus.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus')).getInterface('org.freedesktop.DBus');
    const found = await waitFor(async () => {
      for (const name of ((await owner.ListNames()) as string[]).filter((n) => n.startsWith(':'))) {
        const pid = (await owner.GetConnectionUnixProcessID(name).catch(() => 0)) as number;
        if (!pid || !trayOf(pid, daemonPid)) continue;
        // The binary's other connection holds no menu and never answers: give each a second.
        const [item, menu] = await Promise.race([
          Promise.all([bus.getProxyObject(name, ITEM_PATH), bus.getProxyObject(name, MENU_PATH)]).catch(() => [null, null]),
          new Promise<[null, null]>((resolve) => setTimeout(() => resolve([null, null]), 1000)),
        ]);
        if (item?.interfaces['org.kde.StatusNotifierItem'] && menu?.interfaces['com.canonical.dbusmenu']) return { item, menu };
      }
      return undefined;
    }, 'the tray on the bus');
    const properties = found.item.getInterface('org.freedesktop.DBus.Properties');
    const menu = found.menu.getInterface('com.canonical.dbusmenu');
    return {
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
            label: (p.label?.value as string | undefined) ?? '',
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
      close: () => bus.disconnect(),
    };
  } catch (error) {
    bus.disconnect();
    throw error;
  }
}
