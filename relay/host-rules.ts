// Which hosts the relay's own requests may reach, and how those requests go out (docs/relay.md, "Requests the relay
// makes"; docs/relay-api.md#ra203): the host rules, on a name as written — no single-label names, no `localhost`,
// `.local`, `.internal`, `.home.arpa`, no literal address that is loopback, private, link-local, shared, multicast
// or reserved — and the proxy settings (HTTPS_PROXY, NO_PROXY). A leaf: relay/config.ts checks
// EVENT_CALLBACK_HOSTS and the proxy with it at start, relay/core/outbound.ts applies it to every request.

import { BlockList, isIP } from 'node:net';

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
