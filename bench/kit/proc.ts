// What /proc says about a process and the machine: memory, CPU time.

import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** Resident memory of a process in MiB (VmRSS), and its peak (VmHWM). */
export async function memoryMiB(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** The resolution of `cpuMs`. */
export const CPU_TICK_MS = 1000 / CLOCK_TICKS;

/** CPU time (user + system) a process has used so far, in ms; resolution one clock tick (usually 10 ms). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS; // fields 14 utime, 15 stime
}

/** CPU ms the process uses over `seconds` with nothing asked of it. */
export async function idleCpuMs(pid: number, seconds: number): Promise<number> {
  const before = await cpuMs(pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return (await cpuMs(pid)) - before;
}

/**
 * CPU time the whole machine has spent busy so far (every CPU, every process: all but idle and I/O wait, from
 * /proc/stat), in ms; with the elapsed time it says whether a run had any CPU left over.
 */
export async function machineBusyMs(): Promise<number> {
  const total = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!; // "cpu  user nice system idle iowait irq softirq steal ..."
  const ticks = total.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = ticks.reduce((sum, value) => sum + value, 0) - ticks[3]! - ticks[4]!;
  return (busy * 1000) / CLOCK_TICKS;
}
