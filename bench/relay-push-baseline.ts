// The baseline of bench/relay-latency.ts: the least a relay could do on the same path. Express 5 takes a POST
// with a JSON body and sends it as a WebSocket text frame to the one connected client, with no credential, no
// database and no checks. "relay / baseline" then shows what the relay's own work costs on top of Node, Express
// and ws on this machine. Listens on 127.0.0.1 on a free port and prints the port on stdout.

import type { AddressInfo } from 'node:net';
import express from 'express';
import { WebSocketServer, type WebSocket } from 'ws';

let client: WebSocket | undefined;
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json());
app.post('/push', (req, res) => {
  client?.send(JSON.stringify({ type: 'notify', payload: req.body }));
  res.status(202).json({ queued: true });
});

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
const sockets = new WebSocketServer({ server, path: '/stream' });
sockets.on('connection', (socket) => {
  client = socket;
  socket.send(JSON.stringify({ type: 'welcome' }));
});
process.once('SIGTERM', () => {
  sockets.close();
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
