// Requests the relay itself makes to an address someone else gave it (docs/relay-api.md#ra103: client metadata
// documents; reply-event webhooks use the same rules). Such an address must never let a caller reach the relay's
// own network (server-side request forgery), so:
//   - the URL is https, and its host passes the public-host rules (hostProblem): no single-label names, no
//     localhost, .local, .internal or .home.arpa, no address literal of a private, loopback, link-local, shared,
//     multicast or reserved range;
//   - the name is resolved (A and AAAA) when the connection is made, every address is checked (addressProblem),
//     and the connection goes to the address that was checked — a name cannot resolve one way for the check and
//     another way for the connection;
//   - redirects are never followed, the answer's size and the whole exchange's time are bounded.
// With HTTPS_PROXY set (and the host not matched by NO_PROXY) the connection is tunnelled through the proxy
// with CONNECT and the proxy resolves the name: the host rules still apply, the address check is the proxy's.
//
// RELAY_OUTBOUND_ALLOW_LOOPBACK=1 is for tests only: it lets the loopback range (127.0.0.0/8, ::1) and the
// name `localhost` through, so a test can serve a document from a local https server. Never set it on a relay
// that others can reach (docs/relay.md, "Configuration").

import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { log } from '../log.js';

export type OutboundFailure = 'refused' | 'unreachable' | 'too_large';

/** Why an outbound request did not get an answer: its host or address is not allowed, it failed, or was too large. */
export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundPolicy {
  /** Test only (RELAY_OUTBOUND_ALLOW_LOOPBACK=1): loopback addresses and `localhost` are allowed. */
  allowLoopback: boolean;
  /** HTTPS_PROXY (or https_proxy): an http:// proxy that takes CONNECT. */
  proxy: URL | undefined;
  /** NO_PROXY (or no_proxy): hosts reached directly. */
  noProxy: string[];
  /** Resolves a name to every address (tests give their own). */
  lookup: LookupAll;
}

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** The policy the environment sets (read once per process by `outboundPolicy`). */
export function policyFromEnv(env: NodeJS.ProcessEnv): OutboundPolicy {
  const proxyText = env.HTTPS_PROXY || env.https_proxy || undefined;
  let proxy: URL | undefined;
  if (proxyText) {
    try {
      proxy = new URL(proxyText.includes('://') ? proxyText : `http://${proxyText}`);
    } catch {
      log.warn(`HTTPS_PROXY is not a URL (${proxyText}); outbound requests go direct`);
    }
  }
  const noProxy = (env.NO_PROXY || env.no_proxy || '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  return { allowLoopback: env.RELAY_OUTBOUND_ALLOW_LOOPBACK === '1', proxy, noProxy, lookup: systemLookup };
}

let processPolicy: OutboundPolicy | undefined;

/** This process's policy, from its environment. */
export function outboundPolicy(): OutboundPolicy {
  if (!processPolicy) {
    processPolicy = policyFromEnv(process.env);
    if (processPolicy.allowLoopback)
      log.warn('RELAY_OUTBOUND_ALLOW_LOOPBACK=1: outbound requests may reach loopback addresses (tests only)');
  }
  return processPolicy;
}

// --- Host and address rules ----------------------------------------------------------------------------------

/** Ranges no outbound request may reach: private, loopback, link-local, shared, multicast, reserved. */
const REFUSED = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and broadcast
] as const)
  REFUSED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (IPv4-mapped ones meet the IPv4 ranges above)
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 23], // protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  REFUSED.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Why an address may not be reached, or undefined when it may. */
export function addressProblem(address: string, policy: Pick<OutboundPolicy, 'allowLoopback'>): string | undefined {
  const family = net.isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowLoopback && LOOPBACK.check(address, type)) return undefined;
  return REFUSED.check(address, type) ? `${address} is not a public address` : undefined;
}

/** Name suffixes that never name a public host. */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Why a URL's host is not a public host, or undefined when it is (the syntactic rules; the addresses a name
 * resolves to are checked when connecting). `host` is as `URL.hostname` gives it (IPv6 in brackets).
 */
export function hostProblem(host: string, policy: Pick<OutboundPolicy, 'allowLoopback'>): string | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (net.isIP(bare) !== 0) return addressProblem(bare, policy);
  const name = bare.toLowerCase().replace(/\.$/, '');
  if (policy.allowLoopback && name === 'localhost') return undefined;
  const labels = name.split('.');
  if (labels.length < 2) return `${host} is not a public host name (it has a single label)`;
  if (!labels.every((label) => HOST_LABEL.test(label))) return `${host} is not a valid host name`;
  if (LOCAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) return `${host} is not a public host name`;
  return undefined;
}

// --- The request ---------------------------------------------------------------------------------------------

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, connecting included. */
  timeoutMs: number;
  /** The largest answer body read; a larger one fails with `too_large`. */
  maxBytes: number;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Whether NO_PROXY names this host (an entry, a parent domain of it, or `*`; `host:port` entries match that port). */
function bypassesProxy(host: string, port: number, noProxy: string[]): boolean {
  const name = host.toLowerCase();
  return noProxy.some((entry) => {
    if (entry === '*') return true;
    const [entryHost, entryPort] = entry.replace(/^\*?\./, '').split(/:(?=\d+$)/);
    if (entryPort !== undefined && Number(entryPort) !== port) return false;
    return name === entryHost || name.endsWith(`.${entryHost}`);
  });
}

/**
 * The lookup function a direct connection uses: every address of the name is checked, and the connection gets
 * only checked ones. (Node's socket calls it with `all: true` when it may try several addresses.)
 */
function checkedLookup(policy: OutboundPolicy): net.LookupFunction {
  return (hostname, options, callback) => {
    policy
      .lookup(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new OutboundError('unreachable', `${hostname} has no address`);
        for (const { address } of addresses) {
          const problem = addressProblem(address, policy);
          if (problem) throw new OutboundError('refused', `${hostname} resolves to ${address}: ${problem}`);
        }
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (options.all) (callback as (e: null, a: dns.LookupAddress[]) => void)(null, wanted);
        else callback(null, wanted[0]?.address ?? '', wanted[0]?.family ?? 4);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 4));
  };
}

/** Opens a tunnel through the proxy with CONNECT; resolves with the raw socket to wrap in TLS. */
function tunnel(proxy: URL, host: string, port: number, signal: AbortSignal): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const headers: Record<string, string> = { Host: target };
    if (proxy.username)
      headers['Proxy-Authorization'] =
        `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
    const request = http.request({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: Number(proxy.port || 80),
      method: 'CONNECT',
      path: target,
      headers,
      agent: false,
      signal,
    });
    request.once('connect', (response, socket) => {
      if (response.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new OutboundError('unreachable', `the proxy refused the tunnel to ${target}: ${response.statusCode}`));
    });
    request.once('error', (error) => reject(new OutboundError('unreachable', `the proxy failed: ${error.message}`)));
    request.end();
  });
}

/**
 * One https request to `url` under `policy`: the host rules first (OutboundError `refused`), then the connection
 * (direct to a checked address, or through the proxy), then the answer, whatever its status — redirects are
 * returned, never followed.
 */
export async function fetchChecked(
  url: string | URL,
  request: OutboundRequest,
  policy: OutboundPolicy = outboundPolicy(),
): Promise<OutboundResponse> {
  const target = new URL(url);
  if (target.protocol !== 'https:') throw new OutboundError('refused', 'only https addresses are fetched');
  if (target.username || target.password) throw new OutboundError('refused', 'the address must not carry credentials');
  const problem = hostProblem(target.hostname, policy);
  if (problem) throw new OutboundError('refused', problem);

  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || 443);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  try {
    const viaProxy = policy.proxy !== undefined && !bypassesProxy(host, port, policy.noProxy);
    const socket = viaProxy ? await tunnel(policy.proxy!, host, port, controller.signal) : undefined;
    return await exchange(target, host, port, request, policy, controller.signal, socket);
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    if (controller.signal.aborted) throw new OutboundError('unreachable', `no answer within ${request.timeoutMs / 1000} s`);
    const cause = error as NodeJS.ErrnoException;
    throw new OutboundError('unreachable', `${target.host}: ${cause.code ?? cause.message}`);
  } finally {
    clearTimeout(timer);
  }
}

function exchange(
  target: URL,
  host: string,
  port: number,
  request: OutboundRequest,
  policy: OutboundPolicy,
  signal: AbortSignal,
  tunnelled: net.Socket | undefined,
): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const servername = net.isIP(host) === 0 ? host : undefined;
    const outgoing = https.request({
      host,
      port,
      method: request.method ?? 'GET',
      path: `${target.pathname}${target.search}`,
      headers: { ...request.headers, Host: target.host },
      signal,
      servername,
      // No agent either way: a connection is never reused for another request (its address was checked for this
      // one); without an agent, Node uses createConnection as given.
      ...(tunnelled
        ? { createConnection: () => tls.connect({ socket: tunnelled, servername, ALPNProtocols: ['http/1.1'] }) }
        : { agent: false, lookup: checkedLookup(policy) }),
    });
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxBytes) {
          response.destroy();
          reject(new OutboundError('too_large', `the answer is larger than ${request.maxBytes} bytes`));
        } else chunks.push(chunk);
      });
      response.once('error', reject);
      response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.end(request.body);
  });
}
