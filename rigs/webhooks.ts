// The agent's side of reply events, for the tests and the benchmarks (docs/relay-api.md#ra206, #ra209): a
// throwaway certificate authority and server certificate made with openssl, an https server that verifies every
// request with the official `standardwebhooks` library (as an agent's server would) and answers as told, and an
// egress proxy that tunnels `CONNECT <name>:443` to that server — so the relay's webhooks go over real TLS to
// public-looking names without any DNS.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';

const run = promisify(execFile);
const realNow = Date.now.bind(Date);

export interface Certificates {
  /** The CA's certificate file: what the relay is told to trust (NODE_EXTRA_CA_CERTS). */
  caFile: string;
  ca: string;
  key: string;
  cert: string;
}

/** A CA, and a certificate it signed for `names` (the server's), made in `folder` with openssl. */
export async function makeCertificates(folder: string, names: string[]): Promise<Certificates> {
  const file = (name: string) => path.join(folder, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=Notifier test CA',
  ]);
  await run('openssl', ['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', `/CN=${names[0]}`]);
  await writeFile(file('server.ext'), `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}\n`);
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.crt'),
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
  ]);
  const [ca, key, cert] = await Promise.all(['ca.crt', 'server.key', 'server.crt'].map((name) => readFile(file(name), 'utf8')));
  return { caFile: file('ca.crt'), ca: ca!, key: key!, cert: cert! };
}

/** One request the receiver got. */
export interface ReceivedWebhook {
  path: string;
  /** The Host header (the name the relay asked for). */
  host: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  /** true, or why `standardwebhooks` refused it (no secret known for the path counts as a refusal). */
  verified: true | string;
  /** performance.now() when the body had arrived. */
  at: number;
}

export interface WebhookAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** What an agent's server answers: a challenge is echoed, anything else is taken (200). */
export const echoChallenge = (request: ReceivedWebhook): WebhookAnswer =>
  request.json?.type === 'verification'
    ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ challenge: request.json.challenge }) }
    : { status: 200 };

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** The secret each path verifies with (set it before subscribing). */
  readonly secrets = new Map<string, string>();
  /** How to answer; default echoChallenge. */
  answer: (request: ReceivedWebhook) => WebhookAnswer | Promise<WebhookAnswer> = echoChallenge;
  /** The time verification believes it is (in-process tests move the relay's clock). */
  clock: () => number = realNow;
  private readonly waiting: Array<{ match: (request: ReceivedWebhook) => boolean; resolve: (request: ReceivedWebhook) => void }> = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: https.Server,
    readonly port: number,
  ) {}

  static async start(certificates: Pick<Certificates, 'key' | 'cert'>, options: { verify?: boolean } = {}): Promise<WebhookReceiver> {
    let receiver!: WebhookReceiver;
    const server = https.createServer({ key: certificates.key, cert: certificates.cert, keepAlive: true }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void receiver.take(req, res, Buffer.concat(chunks).toString('utf8'), options.verify !== false));
    });
    server.on('connection', (socket: net.Socket) => {
      receiver?.sockets.add(socket);
      socket.once('close', () => receiver?.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, (server.address() as net.AddressInfo).port);
    return receiver;
  }

  /** Requests received on `path` so far (challenges excluded unless asked). */
  on(path: string, options: { challenges?: boolean } = {}): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path && (options.challenges || request.json?.type !== 'verification'));
  }

  /** The first request matching, among those received or later. */
  waitFor(match: (request: ReceivedWebhook) => boolean, what: string, timeoutMs = 10_000): Promise<ReceivedWebhook> {
    const earlier = this.received.find(match);
    if (earlier) return Promise.resolve(earlier);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; received: ${this.describe()}`)), timeoutMs);
      this.waiting.push({ match, resolve: (request) => (clearTimeout(timer), resolve(request)) });
    });
  }

  /** Waits until `path` has received `count` events (challenges excluded). */
  async events(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.on(path).length < count) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} events on ${path}; received: ${this.describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.on(path);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private describe(): string {
    return JSON.stringify(this.received.map((r) => ({ path: r.path, body: r.body.slice(0, 200), verified: r.verified }))).slice(0, 3000);
  }

  private verify(path: string, body: string, headers: http.IncomingHttpHeaders): true | string {
    const secret = this.secrets.get(path);
    if (secret === undefined) return `no secret known for ${path}`;
    Date.now = this.clock; // the library checks the timestamp against Date.now()
    try {
      new Webhook(secret).verify(body, headers as Record<string, string>);
      return true;
    } catch (error) {
      return (error as Error).message;
    } finally {
      Date.now = realNow;
    }
  }

  private async take(req: http.IncomingMessage, res: http.ServerResponse, body: string, verify: boolean): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const path = req.url ?? '/';
    const request: ReceivedWebhook = {
      path,
      host: req.headers.host ?? '',
      headers: req.headers,
      body,
      json,
      verified: verify ? this.verify(path, body, req.headers) : true,
      at: performance.now(),
    };
    this.received.push(request);
    for (const waiter of [...this.waiting])
      if (waiter.match(request)) {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        waiter.resolve(request);
      }
    const answer = await this.answer(request);
    res.writeHead(answer.status, answer.headers).end(answer.body);
  }
}

/**
 * An egress proxy such as smokescreen, for tests: `CONNECT <name>:443` for a name it knows is tunnelled to the
 * receiver on 127.0.0.1; any other target gets 403, as a proxy that refuses it would.
 */
export class ConnectProxy {
  /** Every CONNECT target asked for, in order. */
  readonly targets: string[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(targetPort: number, names: readonly string[]): Promise<ConnectProxy> {
    const server = http.createServer((_req, res) => res.writeHead(405).end());
    const proxy = await new Promise<ConnectProxy>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve(new ConnectProxy(server, (server.address() as net.AddressInfo).port))),
    );
    server.on('connect', (req, client: net.Socket, head) => {
      const target = req.url ?? '';
      proxy.targets.push(target);
      proxy.track(client);
      client.on('error', () => undefined);
      const [name, port] = target.split(':');
      if (port !== '443' || !names.includes(name!)) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      const upstream = net.connect(targetPort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      proxy.track(upstream);
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }
}

/** A webhook secret as agents make them: `whsec_` and the base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The protocol version of reply events. */
export const MODERN = '2026-07-28';

/** A 2026-07-28 request (`id` null: a notification): the body with its `_meta`, and the headers that repeat it (docs/relay-api.md#ra201). */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  id: number | string | null = 1,
): { body: Record<string, unknown>; headers: Record<string, string> } {
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers: Record<string, string> = { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method };
  if (method === 'tools/call') headers['Mcp-Name'] = String(params.name);
  return { body: { jsonrpc: '2.0', ...(id !== null && { id }), method, params: { ...params, _meta: meta } }, headers };
}
