// The relay as a process, and the first calls every client makes (pairing, a key), shared by the tests and the
// benchmarks: no test framework in here.

import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The built relay, under the repository root. */
export const relayMain = (root: string): string => path.join(root, 'dist', 'relay', 'main.js');

/** The line the relay prints on stdout once it listens. */
const LISTENING = /listening on http:\/\/\S+:(\d+)/;

/** The port the relay prints once it listens; rejects when it exits first or stays silent. */
export function listeningPort(child: ChildProcess, log: () => string, timeoutMs = 20_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`the relay did not start within ${timeoutMs / 1000} s:\n${log()}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = LISTENING.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the relay exited (${code}) before listening:\n${log()}`));
    });
  });
}

/** One request to the relay, as the caller makes it. */
export type RelayCall = (
  method: string,
  route: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<{ status: number; json: any; text: string }>;

export interface PairedDevice {
  deviceId: string;
  token: string;
}

/** Pairs a computer (start, then pair) and returns its id and device token. */
export async function pairDevice(call: RelayCall, deviceName?: string, headers: Record<string, string> = {}): Promise<PairedDevice> {
  const body = deviceName === undefined ? {} : { deviceName };
  const started = await call('POST', '/v1/pair/start', { body, headers });
  if (started.status !== 201) throw new Error(`pair/start answered ${started.status}: ${started.text}`);
  const paired = await call('POST', '/v1/pair', { body: { code: started.json.code, ...body }, headers });
  if (paired.status !== 200) throw new Error(`pair answered ${paired.status}: ${paired.text}`);
  return { deviceId: paired.json.deviceId, token: paired.json.deviceToken };
}

let keys = 0;

/** Makes an agent key with the device token and returns it. */
export async function makeKey(call: RelayCall, deviceToken: string, name = `agent-${process.pid}-${++keys}`): Promise<string> {
  const made = await call('POST', '/v1/device/keys', { token: deviceToken, body: { name } });
  if (made.status !== 201) throw new Error(`key creation answered ${made.status}: ${made.text}`);
  return made.json.key as string;
}
