// Requests the relay itself makes to addresses someone else named — an agent's webhook (docs/relay-api.md#ra203,
// #ra206) and an OAuth client's metadata document (#ra103) — and the rules that keep them from reaching the relay's own
// network (server-side request forgery; docs/relay.md, "Requests the relay makes"). It imports nothing of the relay
// but the rules themselves (relay/host-rules.ts).
//
//   - Host rules, on the name as written: https only; no single-label names, no `localhost`, `.local`,
//     `.internal`, `.home.arpa`; no literal address that is loopback, private, link-local, shared, multicast or
//     reserved (publicHostProblem, isPublicAddress).
//   - Without a proxy the relay resolves the name itself (A and AAAA), refuses it when any address it resolves to
//     is not public, and connects to exactly the addresses it checked: the check is the `lookup` of the
//     connection, so there is no second lookup an attacker's DNS could answer differently.
//   - With HTTPS_PROXY (an egress proxy such as smokescreen, reached with `CONNECT host:443`), the proxy resolves
//     names and applies its own address rules; the relay still applies the host rules to the name. NO_PROXY names
//     hosts reached directly (with the DNS check).
//   - Certificates are checked against the system's roots plus NODE_EXTRA_CA_CERTS (Node reads it at start).
//   - No redirects are followed, a request has one deadline for everything (lookup, proxy, TLS, answer), and the
//     answer's body is read up to a bound.

import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { bypassesProxy, hostOf, isPublicAddress, publicHostProblem, type OutboundSettings } from '../host-rules.js';

// --- Requests ---------------------------------------------------------------------------------------------------

/** docs/relay-api.md#ra209: who is calling, on every request the relay makes. */
export const RELAY_USER_AGENT = 'Notifier-Relay/1.0';

/** A request the rules refused before or while connecting: a host that is not public, or resolves to such an address. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

/** The request's deadline passed. */
export class OutboundTimeout extends Error {
  constructor(ms: number) {
    super(`no complete answer within ${ms / 1000} seconds`);
    this.name = 'OutboundTimeout';
  }
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  /** Besides `User-Agent: Notifier-Relay/1.0`. */
  headers: Record<string, string>;
  body?: string | Buffer;
  /** One deadline for the lookup, the proxy, TLS and the whole answer. */
  timeoutMs: number;
  /** The answer's body is read up to this many bytes; the rest is dropped (`truncated`). */
  maxResponseBytes: number;
  /** Ends the request early (the relay is stopping). */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

export type Resolver = (host: string) => Promise<dns.LookupAddress[]>;

export interface OutboundOptions extends OutboundSettings {
  /** How names are resolved when connecting directly (tests pass their own); default the system's resolver. */
  resolve?: Resolver;
  /** Which resolved addresses may be connected to; default isPublicAddress (tests of the direct path widen it). */
  allowAddress?: (address: string) => boolean;
  /**
   * Certificate authorities trusted besides the system's (in-process tests; a deployment sets NODE_EXTRA_CA_CERTS,
   * which Node reads at start).
   */
  extraCA?: string[];
}

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Idle connections are kept this long for the next request to the same host (servers commonly close at 5 s). */
const IDLE_SOCKET_MS = 4000;
/** Connections per host at once. */
const SOCKETS_PER_HOST = 16;
/** How long the egress proxy may take to open a tunnel (a request's own deadline usually ends it first). */
const TUNNEL_TIMEOUT_MS = 10_000;

export class Outbound {
  private readonly agent: https.Agent;
  private readonly resolve: Resolver;
  private readonly allowAddress: (address: string) => boolean;

  constructor(private readonly options: OutboundOptions) {
    this.resolve = options.resolve ?? systemResolver;
    this.allowAddress = options.allowAddress ?? isPublicAddress;
    const outbound = this;
    // Every connection of the pool is made by connect() below: the only way out.
    this.agent = new (class extends https.Agent {
      override createConnection(
        connection: http.ClientRequestArgs,
        callback?: (error: Error | null, stream: Duplex) => void,
      ): Duplex | null | undefined {
        outbound.connect(String(connection.host), Number(connection.port)).then(
          (socket) => callback!(null, socket),
          (error: Error) => callback!(error, undefined as never),
        );
        return undefined;
      }
    })({ keepAlive: true, maxSockets: SOCKETS_PER_HOST, timeout: IDLE_SOCKET_MS });
  }

  /** Whether requests to `host` go through the egress proxy. */
  viaProxy(host: string, port = 443): boolean {
    return this.options.proxy !== undefined && !bypassesProxy(this.options.noProxy, host, port);
  }

  /**
   * One https request under the rules. Throws OutboundRefused (the host or its address is not public),
   * OutboundTimeout, or the connection's error; any answer, redirects included, is returned as it is.
   */
  async request(url: URL, request: OutboundRequest): Promise<OutboundResponse> {
    if (url.protocol !== 'https:') throw new OutboundRefused(`${url.protocol} is not https`);
    const problem = publicHostProblem(hostOf(url));
    if (problem) throw new OutboundRefused(problem);
    try {
      return await this.send(url, request);
    } catch (error) {
      // A kept connection the server closed just as it was reused: the request never reached it; once more.
      if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET')
        return this.send(url, request);
      throw error;
    }
  }

  /** Closes the kept connections. */
  close(): void {
    this.agent.destroy();
  }

  private send(url: URL, request: OutboundRequest): Promise<OutboundResponse> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: hostOf(url),
          port: url.port === '' ? 443 : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers: { 'User-Agent': RELAY_USER_AGENT, ...request.headers },
          agent: this.agent,
          signal: request.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          res.on('data', (chunk: Buffer) => {
            if (truncated) return;
            if (size + chunk.length > request.maxResponseBytes) {
              chunks.push(chunk.subarray(0, request.maxResponseBytes - size));
              truncated = true;
              res.destroy(); // the rest is not read: this connection is not kept
              finish();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          const finish = (): void => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated });
          };
          res.on('end', finish);
          res.on('error', (error) => (truncated ? undefined : fail(error)));
        },
      );
      const fail = (error: Error): void => {
        clearTimeout(timer);
        reject(Object.assign(error, { reusedSocket: req.reusedSocket }));
      };
      const timer = setTimeout(() => req.destroy(new OutboundTimeout(request.timeoutMs)), request.timeoutMs);
      req.on('error', fail);
      req.end(request.body);
    });
  }

  /** A TLS connection to host:port, through the proxy or to an address checked by the lookup. */
  private async connect(host: string, port: number): Promise<tls.TLSSocket> {
    const options: tls.ConnectionOptions = {
      host,
      servername: isIP(host) === 0 ? host : undefined, // SNI takes names only
      ALPNProtocols: ['http/1.1'],
      ...(this.options.extraCA && { ca: [...tls.rootCertificates, ...this.options.extraCA] }),
    };
    if (this.viaProxy(host, port)) return tls.connect({ ...options, socket: await this.tunnel(host, port) });
    return tls.connect({ ...options, port, lookup: this.checkedLookup });
  }

  /**
   * The lookup of a direct connection: resolves the name once, refuses it when any of its addresses is not
   * allowed, and hands the connection exactly the addresses it checked.
   */
  private readonly checkedLookup: net.LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((entry) => !this.allowAddress(entry.address));
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        if (refused)
          return callback(new OutboundRefused(`${hostname} resolves to ${refused.address}, which is not a public address`), '', 0);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  /** `CONNECT host:port` through the egress proxy; resolves with the tunnel once the proxy answered 200. */
  private tunnel(host: string, port: number): Promise<net.Socket> {
    const proxy = this.options.proxy!;
    const target = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
    const headers: Record<string, string> = { Host: target };
    if (proxy.username !== '')
      headers['Proxy-Authorization'] =
        `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: proxy.port === '' ? 80 : Number(proxy.port),
        method: 'CONNECT',
        path: target,
        headers,
        agent: false,
      });
      req.once('connect', (res, socket) => {
        if (res.statusCode === 200) return resolve(socket);
        socket.destroy();
        reject(
          Object.assign(new Error(`the egress proxy refused ${target}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim()), {
            code: 'EPROXY',
          }),
        );
      });
      req.once('error', reject);
      req.setTimeout(TUNNEL_TIMEOUT_MS, () => req.destroy(new Error(`the egress proxy did not open a tunnel to ${target}`)));
      req.end();
    });
  }
}
