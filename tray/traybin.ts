// systray2's tray binary (getlantern/systray behind a JSON-lines protocol), driven directly rather than through
// systray2's own wrapper, for three reasons (docs/desktop.md#the-tray-traymaints): the wrapper starts the binary under its file name,
// which Linux panels show as the item's title ("tray_linux_release"); it turns `checked` into a " (√)" suffix of
// the label; and its ready() never settles when the binary cannot start.

import { type ChildProcess, spawn } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';

/** One menu entry as the binary reads it. `__id` numbers the entries from 1 in menu order. */
export interface TrayItem {
  title: string;
  tooltip: string;
  enabled: boolean;
  hidden: boolean;
}

export interface TrayMenuSpec {
  /** A PNG, base64. */
  icon: string;
  /** On Linux the label shown next to the icon by panels that show one; empty for none. */
  title: string;
  tooltip: string;
  items: TrayItem[];
}

/** The label systray2 gives a separator; the binary draws a separator line for it. */
export const SEPARATOR_TITLE = '<SEPARATOR>';

/** How long the binary may take to say it is ready: without a display it dies, or with no tray library it hangs. */
const READY_TIMEOUT_MS = 5_000;

export interface TrayBinary {
  /** Retitles, shows, hides, enables or disables the entry at `index` (its place in the menu). */
  update(index: number, item: TrayItem): void;
  /** Takes the icon away and ends the binary. */
  stop(): Promise<void>;
}

/** Where systray2 keeps the binary for this platform (its `traybin` folder). */
function binaryPath(): string {
  const folder = path.dirname(new URL(import.meta.resolve('systray2')).pathname);
  const name = { win32: 'tray_windows_release.exe', darwin: 'tray_darwin_release' }[process.platform as string] ?? 'tray_linux_release';
  return path.join(folder, 'traybin', name);
}

/**
 * Starts the binary with `name` as its program name: on Linux the binary's StatusNotifierItem takes its `Title`
 * from the program name (GLib's prgname, from argv[0]). Resolves with null when it cannot start (no display, no
 * tray library). `onClick` gets the index of the entry the person chose.
 */
export async function startTrayBinary(name: string, menu: TrayMenuSpec, onClick: (index: number) => void): Promise<TrayBinary | null> {
  const binary = binaryPath();
  await chmod(binary, 0o755).catch(() => undefined); // systray2 ships it without its run bit
  const child: ChildProcess = spawn(binary, [], { argv0: name, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const send = (message: unknown): void => {
    if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  const withId = (item: TrayItem, index: number) => ({ ...item, __id: index + 1 });

  const lines = readline.createInterface({ input: child.stdout! });
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
    void exited.then(() => resolve(false));
    lines.on('line', (line) => {
      let message: { type?: string; seq_id?: number };
      try {
        message = JSON.parse(line);
      } catch {
        return; // the binary's own diagnostics
      }
      if (message.type === 'ready') {
        clearTimeout(timer);
        send({ ...menu, items: menu.items.map(withId) });
        resolve(true);
      } else if (message.type === 'clicked' && typeof message.seq_id === 'number') {
        onClick(message.seq_id);
      }
    });
  });
  if (!ready) {
    child.kill('SIGKILL');
    return null;
  }
  return {
    update: (index, item) => send({ type: 'update-item', item: withId(item, index), seq_id: index }),
    stop: async () => {
      send({ type: 'exit' });
      const timer = setTimeout(() => child.kill('SIGKILL'), READY_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
