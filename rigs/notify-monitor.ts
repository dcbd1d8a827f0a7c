import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// Shared by the benchmarks: no test framework in here.

export interface NotifyMonitor {
  /** When each Notify call crossed the bus (epoch milliseconds, as dbus-monitor stamped it), by its summary. */
  seen: Map<string, number>;
  /** Waits until a Notify call with this summary was seen (at most `timeoutMs`); its time. */
  crossed(summary: string, timeoutMs?: number): Promise<number>;
  stop(): void;
}

/** Now, on the clock dbus-monitor stamps with (epoch milliseconds, sub-millisecond). */
export const wallClockMs = (): number => performance.timeOrigin + performance.now();

/**
 * dbus-monitor on a session bus, stamping every `Notify` call with the moment it crossed the bus. Wall-clock
 * times of this machine, comparable with `wallClockMs()`.
 */
export async function monitorNotify(env: Record<string, string>): Promise<NotifyMonitor> {
  const seen = new Map<string, number>();
  const monitor = spawn('dbus-monitor', ["interface='org.freedesktop.Notifications',member='Notify'"], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let callTime: number | null = null;
  let strings = 0;
  createInterface({ input: monitor.stdout! }).on('line', (line) => {
    const header = /^method call time=(\d+\.\d+) .*member=Notify$/.exec(line);
    if (header) {
      callTime = Number(header[1]) * 1000;
      strings = 0;
    } else if (callTime !== null && /^\s+string "/.test(line) && ++strings === 3) {
      seen.set(line.trim().slice('string "'.length, -1), callTime); // app, icon, then the summary
      callTime = null;
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 300)); // dbus-monitor has registered its match
  return {
    seen,
    async crossed(summary, timeoutMs = 10_000) {
      for (let waited = 0; !seen.has(summary) && waited < timeoutMs; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      const at = seen.get(summary);
      if (at === undefined) throw new Error(`no Notify on the bus for "${summary}"`);
      return at;
    },
    stop: () => void monitor.kill(),
  };
}
