// Requests the relay itself makes to addresses someone else named — an agent's webhook (docs/relay-api.md#ra203,
// #ra206) and an OAuth client's metadata document (#ra103) — and the rules that keep them from reaching the relay's own
// network (server-side request forgery; docs/relay.md, "Requests the relay makes"). Self-contained: it imports
// nothing of the relay.
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
import net, { BlockList, isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';

// --- Host rules -------------------------------------------------------------------------------------------------

/** Names that only ever mean something inside a network: the name itself, or its last labels. */
const PRIVATE_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];

/**
 * Loopback, private, link-local, shared, documentation, benchmarking, multicast and reserved addresses. One list
 * per family: a BlockList checks an IPv4 address against its IPv6 rules too (as IPv4-mapped), and `::/16` covers
 * all of those.
 */
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // the old 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const)
  NOT_PUBLIC_V4.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 16], // unspecified, loopback, IPv4-mapped and -compatible
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address in disguise
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC_V6.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address (v4 or v6, without brackets) is one a public server can have. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !NOT_PUBLIC_V4.check(address, 'ipv4') : !NOT_PUBLIC_V6.check(address, 'ipv6');
}

/** A URL's host as the rules read it: lower case, without IPv6 brackets or a final dot. */
export function hostOf(url: URL): string {
  return url.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/**
 * Why a host (as hostOf gives it) is not a public one, or undefined when it is. Literal addresses are checked by
 * their range; names must have a dot and must not end in a name that only works inside a network.
 */
export function publicHostProblem(host: string): string | undefined {
  if (isIP(host) !== 0) return isPublicAddress(host) ? undefined : `${host} is not a public address`;
  if (host === '' || !host.includes('.')) return `${host || 'an empty host'} is not a public host name (it has no dot)`;
  const suffix = PRIVATE_NAME_SUFFIXES.find((name) => host === name || host.endsWith(`.${name}`));
  return suffix === undefined ? undefined : `${host} is a name of a private network (.${suffix})`;
}

// --- Proxy settings ---------------------------------------------------------------------------------------------

export interface OutboundSettings {
  /** The egress proxy (`http://host:port`), or undefined to connect directly. */
  proxy: URL | undefined;
  /** NO_PROXY entries, lower case: `*`, a host, or a domain (`example.org` and `.example.org` both cover subdomains). */
  noProxy: string[];
}

/** HTTPS_PROXY (or https_proxy) and NO_PROXY (or no_proxy); the problems are for the relay's start-up report. */
export function outboundSettingsFromEnv(env: NodeJS.ProcessEnv): { settings: OutboundSettings; problems: string[] } {
  const problems: string[] = [];
  const given = (...names: string[]): string | undefined => names.map((name) => env[name]?.trim()).find((value) => value);
  const proxyText = given('HTTPS_PROXY', 'https_proxy');
  let proxy: URL | undefined;
  if (proxyText !== undefined) {
    try {
      proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(proxyText) ? proxyText : `http://${proxyText}`);
      if (proxy.protocol !== 'http:') throw new Error('not http');
    } catch {
      problems.push(
        `HTTPS_PROXY must be the http:// address of a CONNECT proxy, such as http://127.0.0.1:4750 (got ${JSON.stringify(proxyText)})`,
      );
      proxy = undefined;
    }
  }
  const noProxy = (given('NO_PROXY', 'no_proxy') ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.toLowerCase().replace(/^\*?\./, '.'))
    .filter((entry) => entry !== '');
  return { settings: { proxy, noProxy }, problems };
}

/** Whether NO_PROXY says to reach `host` (port 443 or `port`) directly. */
export function bypassesProxy(noProxy: readonly string[], host: string, port: number): boolean {
  return noProxy.some((entry) => {
    if (entry === '*') return true;
    const [name, entryPort] = entry.startsWith('[') ? [entry.slice(1, entry.indexOf(']')), entry.split(']:')[1]] : entry.split(':');
    if (entryPort !== undefined && Number(entryPort) !== port) return false;
    const bare = name!.replace(/^\./, '');
    return host === bare || host.endsWith(`.${bare}`);
  });
}

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
