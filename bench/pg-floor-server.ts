// The floor of bench/relay-throughput.ts (`--floor`): the least a relay on PostgreSQL does for a notification, and nothing more —
// Express 5 takes the JSON body, one INSERT stores it (a prepared statement on a pool of connections, as the
// relay's), the answer is sent when PostgreSQL has answered. No key checked, no limit, no lock, no frame pushed to
// a computer, no acknowledgement written, no log line, no metric. FLOOR_COMMIT=async turns synchronous_commit off
// (an answer before the commit is on disk, which the relay never does), to show what the commit's flush costs.
// Listens on 127.0.0.1 on a free port and prints the port on stdout.

import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';

/** The relay's pool size (relay/store/postgres.ts). */
const POOL_SIZE = 20;
const INSERT = { name: 'floor_insert', text: 'insert into floor_notes (payload, created_at) values ($1, $2) returning id' };

const url = process.env['DATABASE_URL'];
if (!url) throw new Error('DATABASE_URL is not set');
const pool = new pg.Pool({
  connectionString: url,
  max: POOL_SIZE,
  options: process.env['FLOOR_COMMIT'] === 'async' ? '-c synchronous_commit=off' : undefined,
});
await pool.query('create table if not exists floor_notes (id bigserial primary key, payload jsonb not null, created_at bigint not null)');

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json());
app.post('/v1/notify', (req, res, next) => {
  pool
    .query({ ...INSERT, values: [JSON.stringify(req.body), Date.now()] })
    .then((result) => res.json({ ok: true, id: String(result.rows[0].id) }), next);
});

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
