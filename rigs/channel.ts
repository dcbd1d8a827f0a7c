import net from 'node:net';

// Shared by the tests and the benchmarks: no test framework in here.

/** Talks to the daemon's private channel (what the tray does): one JSON request, one JSON answer. */
export function channel(path: string, message: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path, () => socket.write(`${JSON.stringify(message)}\n`));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      const end = received.indexOf('\n');
      if (end >= 0) {
        socket.end();
        resolve(JSON.parse(received.slice(0, end)));
      }
    });
    socket.on('error', reject);
  });
}
