// The private channel's `watch`, held open as the tray holds it.

import net from 'node:net';

/** A `watch` on the private channel, as the tray keeps one: every line received (the answer, then the events). */
export function watchChannel(path: string): { lines: any[]; write(message: unknown): void; close(): void } {
  const lines: any[] = [];
  let buffered = '';
  const socket = net.connect(path, () => socket.write('{"op":"watch"}\n'));
  socket.on('data', (chunk) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, end)));
      buffered = buffered.slice(end + 1);
    }
  });
  socket.on('error', () => undefined);
  return { lines, write: (message) => socket.write(`${JSON.stringify(message)}\n`), close: () => socket.destroy() };
}
