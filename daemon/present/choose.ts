import type { Presenter } from './presenter.js';

// The presenters are loaded when one is chosen, not with this module: the `notifier` command reads
// PRESENTER_NAMES for its options, and its client commands must start without loading D-Bus and node-notifier.

/** Names accepted by `--presenter` / `NOTIFIER_PRESENTER`. */
export const PRESENTER_NAMES = ['auto', 'dbus', 'node-notifier', 'headless'] as const;
export type PresenterName = (typeof PRESENTER_NAMES)[number];

export function isPresenterName(name: string): name is PresenterName {
  return (PRESENTER_NAMES as readonly string[]).includes(name);
}

/**
 * The presenter for a name, with a note for the log when `auto` fell back. `auto`: on macOS and Windows,
 * node-notifier (Notification Center, toasts); on Linux the desktop's notification server over D-Bus, else
 * headless. (On Linux node-notifier only runs notify-send, which needs the same bus and server, and has no
 * buttons: it is no better fallback.) `dbus` without a server is an error.
 */
export async function choosePresenter(name: PresenterName): Promise<{ presenter: Presenter; note?: string }> {
  const headless = async () => new (await import('./headless.js')).HeadlessPresenter();
  const nodeNotifier = async () => new (await import('./node-notifier.js')).NodeNotifierPresenter();
  if (name === 'headless') return { presenter: await headless() };
  if (name === 'node-notifier') return { presenter: await nodeNotifier() };
  if (name === 'auto' && (process.platform === 'darwin' || process.platform === 'win32')) {
    return { presenter: await nodeNotifier() };
  }
  const connected = await (await import('./dbus.js')).DBusPresenter.connect();
  if ('presenter' in connected) return { presenter: connected.presenter };
  if (name === 'dbus') throw new Error(`--presenter dbus: ${connected.reason}`);
  return { presenter: await headless(), note: `${connected.reason}: banners are logged instead (headless)` };
}
