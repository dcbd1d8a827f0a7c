// The tray on macOS and Windows: systray2's tray binary (getlantern/systray behind a JSON-lines protocol), which
// draws the title and check marks natively there. On Linux the tray speaks StatusNotifierItem itself (tray/sni.ts;
// docs/desktop.md#two-ways-of-drawing-it says why). The binary is driven directly rather than through systray2's own
// wrapper: the wrapper starts it under its file name (the title some panels show), turns `checked` into a " (√)"
// suffix of the label on Linux, and its ready() never settles when the binary cannot start.

import { type ChildProcess, spawn } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import type { StartTray, TrayEntry } from './backend.js';

/** One menu entry as the binary reads it. `__id` numbers the entries from 1 in menu order. */
interface BinaryItem {
  title: string;
  tooltip: string;
  enabled: boolean;
  hidden: boolean;
  /** Drawn as a check mark on macOS and Windows (on Linux the binary draws nothing for it). */
  checked: boolean;
  __id: number;
}

/** The label systray2 gives a separator; the binary draws a separator line for it. */
const SEPARATOR_TITLE = '<SEPARATOR>';

const itemOf = (entry: TrayEntry, index: number): BinaryItem => ({
  title: entry.separator ? SEPARATOR_TITLE : entry.label,
  tooltip: entry.tooltip,
  enabled: entry.enabled,
  hidden: !entry.visible,
  checked: entry.checked === true,
  __id: index + 1,
});

/** How long the binary may take to say it is ready: without a display it dies, or with no tray library it hangs. */
const READY_TIMEOUT_MS = 5_000;

/** Where systray2 keeps the binary for this platform (its `traybin` folder). */
function binaryPath(): string {
  const folder = path.dirname(new URL(import.meta.resolve('systray2')).pathname);
  const name = { win32: 'tray_windows_release.exe', darwin: 'tray_darwin_release' }[process.platform as string] ?? 'tray_linux_release';
  return path.join(folder, 'traybin', name);
}

/**
 * Starts the binary with the tray's name as its program name (what the system lists it as). Fails when the binary
 * cannot start (no display, no tray library). Its tooltip stays the tray's name: the binary takes the tooltip once,
 * so the status's summary and attention are not shown.
 */
export const startTrayBinary: StartTray = async (look, menu, onClick) => {
  const binary = binaryPath();
  await chmod(binary, 0o755).catch(() => undefined); // systray2 ships it without its run bit
  const child: ChildProcess = spawn(binary, [], { argv0: look.name, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const send = (message: unknown): void => {
    if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
  };

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
        send({ icon: look.icon.toString('base64'), title: '', tooltip: look.name, items: menu.entries.map(itemOf) });
        resolve(true);
      } else if (message.type === 'clicked' && typeof message.seq_id === 'number') {
        onClick(message.seq_id);
      }
    });
  });
  if (!ready) {
    child.kill('SIGKILL');
    return { failed: 'the tray binary did not start (no display, or no tray library)' };
  }
  return {
    update: (changed) => {
      for (const { index, entry } of changed) send({ type: 'update-item', item: itemOf(entry, index), seq_id: index });
    },
    setStatus: () => undefined,
    stop: async () => {
      send({ type: 'exit' });
      const timer = setTimeout(() => child.kill('SIGKILL'), READY_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
};
