// The baseline server of bench/notify-throughput.ts: the smallest useful Express 5 JSON route, so the ratio
// "daemon / baseline" shows what the daemon's own work costs on top of Node + Express on this machine.
// Listens on 127.0.0.1 on a free port and prints the port on stdout.

import type { AddressInfo } from 'node:net';
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/', (_req, res) => {
  res.json({ hello: 'world', ok: true });
});

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
