// The relay's outbound requests (relay/core/outbound.ts, their rules in relay/host-rules.ts; docs/relay-api.md#ra203,
// docs/relay.md "Reply events"): the host rules, which addresses are public, NO_PROXY, and the checked connection
// — a name is resolved once, refused when any address it resolves to is not public, and connected to at exactly
// the address that was checked; through the egress proxy, the proxy resolves. In-process, against a local TLS
// server.

import { afterAll, describe, expect, test } from '@jest/globals';
import type { LookupAddress } from 'node:dns';
import https from 'node:https';
import type net from 'node:net';
import { loadConfig } from '../../../relay/config.js';
import { Outbound, OutboundRefused, OutboundTimeout, type OutboundOptions } from '../../../relay/core/outbound.js';
import { bypassesProxy, isPublicAddress, outboundSettingsFromEnv, publicHostProblem } from '../../../relay/host-rules.js';
import { startRelay } from '../../../relay/server.js';
import { tempFolder } from '../../helpers/daemon.js';
import { request } from '../../helpers/http.js';
import { modernRequest, newWebhookSecret, useWebhookRig } from '../../helpers/webhooks.js';

const rig = useWebhookRig();

const outbounds: Outbound[] = [];
afterAll(() => outbounds.forEach((outbound) => outbound.close()));

function outbound(options: Partial<OutboundOptions> = {}): Outbound {
  const made = new Outbound({ proxy: undefined, noProxy: [], extraCA: [rig().certificates.ca], ...options });
  outbounds.push(made);
  return made;
}

/** A resolver that answers `addresses` and counts its calls. */
function resolver(...addresses: string[]) {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    calls.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { calls, resolve };
}

const POST = {
  method: 'POST' as const,
  headers: { 'content-type': 'application/json' },
  body: '{}',
  timeoutMs: 5000,
  maxResponseBytes: 65536,
};

describe('host rules', () => {
  test('names: a dot, and none of localhost, .local, .internal, .home.arpa; literal addresses by their range', () => {
    for (const host of [
      'hooks.example.com',
      'a.b',
      'xn--bcher-kva.example',
      'localhost.example.com',
      'mylocal.com',
      '8.8.8.8',
      '2606:4700::1111',
    ])
      expect([host, publicHostProblem(host)]).toEqual([host, undefined]);
    for (const host of ['', 'intranet', 'localhost', 'api.localhost', 'printer.local', 'db.internal', 'nas.home.arpa', '10.0.0.1', '::1'])
      expect([host, publicHostProblem(host)]).toEqual([host, expect.any(String)]);
  });

  test('addresses: loopback, private, link-local, shared, documentation, benchmarking, multicast, reserved and disguised IPv4 are not public', () => {
    const publicOnes = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.0.1.1', '2606:4700::1111', '2a00:1450:4001::200e'];
    const privateOnes = [
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.88.99.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b:1::a00:1',
      '100::1',
      '2001::1',
      '2001:db8::1',
      '2002:a00:1::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      'not-an-address',
    ];
    expect(publicOnes.filter((address) => !isPublicAddress(address))).toEqual([]);
    expect(privateOnes.filter((address) => isPublicAddress(address))).toEqual([]);
  });

  test('HTTPS_PROXY and NO_PROXY: read from either case; a proxy that is not http:// stops the relay at start', () => {
    expect(outboundSettingsFromEnv({ HTTPS_PROXY: 'http://127.0.0.1:4750' }).settings.proxy?.href).toBe('http://127.0.0.1:4750/');
    expect(outboundSettingsFromEnv({ https_proxy: 'proxy.internal:4750' }).settings.proxy?.href).toBe('http://proxy.internal:4750/');
    expect(outboundSettingsFromEnv({ HTTPS_PROXY: 'https://proxy:4750' }).problems).toEqual([expect.stringContaining('HTTPS_PROXY')]);
    expect(outboundSettingsFromEnv({}).settings).toEqual({ proxy: undefined, noProxy: [] });
    const { noProxy } = outboundSettingsFromEnv({
      no_proxy: 'Example.com, .corp.example ,*.svc.example,hooks.example.org:443,other.example:8443',
    }).settings;
    expect(noProxy).toEqual(['example.com', '.corp.example', '.svc.example', 'hooks.example.org:443', 'other.example:8443']);
    expect(bypassesProxy(noProxy, 'example.com', 443)).toBe(true);
    expect(bypassesProxy(noProxy, 'api.example.com', 443)).toBe(true);
    expect(bypassesProxy(noProxy, 'a.corp.example', 443)).toBe(true);
    expect(bypassesProxy(noProxy, 'x.svc.example', 443)).toBe(true);
    expect(bypassesProxy(noProxy, 'hooks.example.org', 443)).toBe(true);
    expect(bypassesProxy(noProxy, 'other.example', 443)).toBe(false); // only its port 8443
    expect(bypassesProxy(noProxy, 'notexample.com', 443)).toBe(false);
    expect(bypassesProxy(['*'], 'anything.example', 443)).toBe(true);
  });
});

describe('the checked connection', () => {
  test('without a proxy: a name that resolves to any address that is not public is refused before connecting', async () => {
    const url = new URL(`https://hooks.example.com:${rig().receiver.port}/dns`);
    for (const addresses of [['127.0.0.1'], ['8.8.8.8', '10.0.0.1'], ['::1']]) {
      const { calls, resolve } = resolver(...addresses);
      const error = await outbound({ resolve })
        .request(url, POST)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboundRefused);
      expect((error as Error).message).toContain('is not a public address');
      expect(calls).toEqual(['hooks.example.com']);
    }
    const none = await outbound({ resolve: resolver().resolve })
      .request(url, POST)
      .catch((e: unknown) => e);
    expect(none).not.toBeInstanceOf(OutboundRefused);
    expect((none as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
    expect(rig().receiver.on('/dns', { challenges: true })).toEqual([]);
  });

  test("without a proxy: it connects to exactly the address it checked (one lookup), and verifies the name's certificate", async () => {
    // Only 127.0.0.1 is allowed here (a test's widened rule); a second lookup would get 127.0.0.2, refused.
    let lookups = 0;
    const resolve = async (): Promise<LookupAddress[]> => [{ address: ++lookups === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    const direct = outbound({ resolve, allowAddress: (address) => address === '127.0.0.1' });
    const url = new URL(`https://hooks.example.com:${rig().receiver.port}/direct`);
    const answer = await direct.request(url, POST);
    expect(answer.status).toBe(200);
    expect(lookups).toBe(1);
    expect(rig().receiver.on('/direct')[0]!.host).toBe(`hooks.example.com:${rig().receiver.port}`);
    // The certificate must be for the name asked for: the same server under another name is refused.
    const wrongName = await outbound({ resolve: resolver('127.0.0.1').resolve, allowAddress: () => true })
      .request(new URL(`https://wrong.example.com:${rig().receiver.port}/direct`), POST)
      .catch((e: unknown) => e);
    expect((wrongName as NodeJS.ErrnoException).code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    // And without the test's certificate authority, it is not trusted.
    const untrusted = await new Outbound({
      proxy: undefined,
      noProxy: [],
      resolve: resolver('127.0.0.1').resolve,
      allowAddress: () => true,
    })
      .request(url, POST)
      .catch((e: unknown) => e);
    expect((untrusted as NodeJS.ErrnoException).code).toMatch(/CERT|SIGNATURE|SELF_SIGNED|UNABLE/);
  });

  test('through the egress proxy: CONNECT name:443, the proxy resolves; NO_PROXY hosts go direct with the DNS check', async () => {
    const { calls, resolve } = resolver('127.0.0.1');
    const proxied = outbound({ proxy: new URL(rig().proxy.url), noProxy: ['agent.example.org'], resolve });
    expect((await proxied.request(new URL('https://hooks.example.com/proxied'), POST)).status).toBe(200);
    expect(rig().proxy.targets).toContain('hooks.example.com:443');
    expect(calls).toEqual([]); // the proxy resolved it
    const refusedByProxy = await proxied.request(new URL('https://unknown.example.com/x'), POST).catch((e: unknown) => e);
    expect((refusedByProxy as NodeJS.ErrnoException).code).toBe('EPROXY');
    const bypassed = await proxied.request(new URL('https://agent.example.org/x'), POST).catch((e: unknown) => e);
    expect(bypassed).toBeInstanceOf(OutboundRefused); // direct, resolved to 127.0.0.1: refused
    expect(calls).toEqual(['agent.example.org']);
    // The host rules apply to the name as written, proxy or not: nothing is asked of the proxy.
    const before = rig().proxy.targets.length;
    for (const url of ['https://localhost/x', 'https://10.0.0.1/x', 'https://printer.local/x', 'http://hooks.example.com/x']) {
      expect(await proxied.request(new URL(url), POST).catch((e: unknown) => e)).toBeInstanceOf(OutboundRefused);
    }
    expect(rig().proxy.targets.length).toBe(before);
  });

  test('one deadline for the whole request; the answer is read up to a bound; redirects are answers, not followed', async () => {
    const silent = https.createServer({ key: rig().certificates.key, cert: rig().certificates.cert }, () => undefined); // never answers
    const big = https.createServer({ key: rig().certificates.key, cert: rig().certificates.cert }, (req, res) => {
      if (req.url === '/redirect') return void res.writeHead(301, { location: 'https://10.0.0.1/' }).end();
      res.writeHead(200).end('x'.repeat(100_000));
    });
    const listen = (server: https.Server) =>
      new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
    const [silentPort, bigPort] = [await listen(silent), await listen(big)];
    try {
      const local = outbound({ resolve: resolver('127.0.0.1').resolve, allowAddress: () => true });
      const started = Date.now();
      const timedOut = await local
        .request(new URL(`https://hooks.example.com:${silentPort}/`), { ...POST, timeoutMs: 300 })
        .catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(OutboundTimeout);
      expect(Date.now() - started).toBeLessThan(3000);
      const bounded = await local.request(new URL(`https://hooks.example.com:${bigPort}/`), { ...POST, maxResponseBytes: 1000 });
      expect([bounded.status, bounded.body.length, bounded.truncated]).toEqual([200, 1000, true]);
      const redirect = await local.request(new URL(`https://hooks.example.com:${bigPort}/redirect`), POST);
      expect([redirect.status, redirect.headers.location]).toEqual([301, 'https://10.0.0.1/']);
    } finally {
      silent.closeAllConnections();
      big.closeAllConnections();
      silent.close();
      big.close();
    }
  });
});

describe('a relay without an egress proxy', () => {
  test('events/subscribe refuses a callback whose name resolves to an address that is not public, before sending anything', async () => {
    const { calls, resolve } = resolver('8.8.8.8', '192.168.1.20');
    const config = loadConfig({ RELAY_PORT: '0', RELAY_DATA_DIR: await tempFolder('notifier-outbound-') });
    const relay = await startRelay({ ...config, secret: 'a'.repeat(64) }, { outbound: { resolve }, background: false });
    try {
      const call = (method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
        request(relay.port, method, path, { token: token ?? null, body, headers });
      const code = (await call('POST', '/v1/pair/start', undefined, {})).json.code;
      const device = (await call('POST', '/v1/pair', undefined, { code })).json;
      const key = (await call('POST', '/v1/device/keys', device.deviceToken, { name: 'agent' })).json.key;
      const { body, headers } = modernRequest('events/subscribe', {
        name: 'notification.reply',
        delivery: { mode: 'webhook', url: 'https://rebinding.example.com/hook', secret: newWebhookSecret() },
      });
      const answer = await call('POST', '/mcp', key, body, headers);
      expect([answer.status, answer.json.error]).toEqual([200, { code: -32602, message: 'delivery.url must be a public address' }]);
      expect(calls).toEqual(['rebinding.example.com']);
      expect((await call('GET', '/v1/device/events', device.deviceToken)).json.subscriptions).toEqual([]);
    } finally {
      await relay.close();
    }
  });
});
