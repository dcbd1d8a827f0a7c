// common/bounded-body.ts: a request's body read up to a byte limit, over a real HTTP server and raw sockets, so
// the test decides what the client announces and when it sends (or stops sending) each byte.

import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, expect, test } from '@jest/globals';
import { announcedLength, readBoundedBody, TOO_LARGE, type BodyRefusals, type BoundedBody } from '../../common/bounded-body.js';

class Encoded extends Error {}
class CutOff extends Error {}
const REFUSALS: BodyRefusals = { encoded: () => new Encoded('compressed'), cutOff: () => new CutOff('cut off') };

const LIMIT = 100;

let server: http.Server | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** What the server's read gave for the one request, and the announced length it saw. */
interface Read {
  outcome: Promise<BoundedBody>;
  announced: number | undefined;
}

/** A server that reads each request's body with the limit; `send` writes raw bytes to it. */
async function serve(): Promise<{ reads: Promise<Read>; send: (text: string) => net.Socket }> {
  let gotRead: (read: Read) => void;
  const reads = new Promise<Read>((resolve) => (gotRead = resolve));
  server = http.createServer((req, res) => {
    const outcome = readBoundedBody(req, LIMIT, REFUSALS);
    gotRead({ outcome, announced: announcedLength(req) });
    outcome.then(
      () => res.end('read'),
      () => res.end('refused'),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const send = (text: string): net.Socket => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(text);
    sockets.push(socket);
    return socket;
  };
  return { reads, send };
}

const head = (headers: string): string => `POST / HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;

test('a body within the limit is read whole, from however many chunks it arrives in', async () => {
  const { reads, send } = await serve();
  const socket = send(head('Transfer-Encoding: chunked\r\n') + '5\r\nhello\r\n');
  const read = await reads;
  socket.write('6\r\n world\r\n0\r\n\r\n');
  expect((await read.outcome).toString()).toBe('hello world');
  expect(read.announced).toBeUndefined();
});

test('an empty body is an empty buffer', async () => {
  const { reads, send } = await serve();
  send(head('Content-Length: 0\r\n'));
  const read = await reads;
  expect(await read.outcome).toEqual(Buffer.alloc(0));
  expect(read.announced).toBe(0);
});

test('a body announced larger than the limit is refused before a byte of it arrives', async () => {
  const { reads, send } = await serve();
  send(head(`Content-Length: ${LIMIT + 1}\r\n`)); // and nothing after: a read would wait forever
  const read = await reads;
  expect(await read.outcome).toBe(TOO_LARGE);
  expect(read.announced).toBe(LIMIT + 1);
});

test('a body that grows past the limit is refused as soon as it does, before it ends', async () => {
  const { reads, send } = await serve();
  const socket = send(head('Transfer-Encoding: chunked\r\n') + `${(60).toString(16)}\r\n${'a'.repeat(60)}\r\n`);
  const read = await reads;
  socket.write(`${(60).toString(16)}\r\n${'b'.repeat(60)}\r\n`); // 120 bytes in all; the body never ends
  expect(await read.outcome).toBe(TOO_LARGE);
});

test('exactly the limit is read', async () => {
  const { reads, send } = await serve();
  send(head(`Content-Length: ${LIMIT}\r\n`) + 'x'.repeat(LIMIT));
  expect(((await (await reads).outcome) as Buffer).length).toBe(LIMIT);
});

test("a compressed body is refused with the caller's error, without reading it", async () => {
  const { reads, send } = await serve();
  send(head('Content-Length: 4\r\nContent-Encoding: gzip\r\n'));
  await expect((await reads).outcome).rejects.toBeInstanceOf(Encoded);
});

test('`identity` is no encoding: read as any other', async () => {
  const { reads, send } = await serve();
  send(head('Content-Length: 2\r\nContent-Encoding: Identity\r\n') + 'ok');
  expect((await (await reads).outcome).toString()).toBe('ok');
});

test("a client that stops sending midway and goes away gets the caller's error", async () => {
  const { reads, send } = await serve();
  const socket = send(head('Content-Length: 50\r\n') + 'only part');
  const read = await reads;
  socket.destroy();
  await expect(read.outcome).rejects.toBeInstanceOf(CutOff);
});
