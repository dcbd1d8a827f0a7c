// Client ID Metadata Documents (docs/relay-api.md#ra103). A real https server with a certificate the relay trusts
// (NODE_EXTRA_CA_CERTS) serves the documents; the relay reaches it through a CONNECT proxy (HTTPS_PROXY: the
// proxy resolves the public-looking name). The outbound rules themselves (addresses, names, the checked lookup)
// are tested in test/relay/core/outbound.test.ts.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tempFolder } from '../helpers/daemon.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { authorizeQuery, consentFrame, decide, exchange, MemoryProvider, pageRid, pkce } from '../helpers/oauth.js';
import { BACKENDS, pairDevice, startRelay, type RelayProcess } from '../helpers/relay.js';

const PUBLIC_ID = 'https://client.example.com/mcp-client.json';
const CALLBACK = 'http://127.0.0.1:9/callback';

let work: string;
let documents: https.Server;
let documentsPort: number;
/** Paths the document server was asked for. */
const fetched: string[] = [];
let proxy: http.Server;
let proxyPort: number;
/** CONNECT targets the proxy was asked for. */
const tunnels: string[] = [];
/** The tunnels' sockets (a CONNECT socket leaves the HTTP server's hands, so it is closed here). */
const tunnelSockets = new Set<net.Socket>();

beforeAll(async () => {
  work = await tempFolder('notifier-cimd-');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=client.example.com'],
      ...['-addext', 'subjectAltName=DNS:client.example.com,DNS:public.example,DNS:localhost,IP:127.0.0.1'],
      ...['-keyout', path.join(work, 'key.pem'), '-out', path.join(work, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  );
  const document = (clientId: string, extra: object = {}) =>
    JSON.stringify({ client_id: clientId, client_name: 'Metadata Client', redirect_uris: [CALLBACK], ...extra });
  documents = https.createServer(
    { key: await readFile(path.join(work, 'key.pem')), cert: await readFile(path.join(work, 'cert.pem')) },
    (req, res) => {
      fetched.push(req.url!);
      const json = { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=600' };
      if (req.url === '/mcp-client.json') res.writeHead(200, json).end(document(PUBLIC_ID));
      else if (req.url === '/redirect.json') res.writeHead(302, { Location: '/mcp-client.json' }).end();
      else if (req.url === '/big.json')
        res.writeHead(200, json).end(document('https://client.example.com/big.json', { pad: 'x'.repeat(6000) }));
      else if (req.url === '/other-id.json') res.writeHead(200, json).end(document(PUBLIC_ID));
      else if (req.url === '/secret.json')
        res
          .writeHead(200, json)
          .end(document('https://client.example.com/secret.json', { token_endpoint_auth_method: 'client_secret_basic' }));
      else res.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentsPort = (documents.address() as AddressInfo).port;

  // A CONNECT proxy that sends every tunnel to the document server, whatever name it was asked for.
  proxy = http.createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client: net.Socket, head) => {
    tunnels.push(req.url!);
    tunnelSockets.add(client);
    const upstream = net.connect(documentsPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    tunnelSockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of tunnelSockets) socket.destroy();
  documents?.closeAllConnections();
  proxy?.closeAllConnections();
  await Promise.all([new Promise((resolve) => documents?.close(resolve)), new Promise((resolve) => proxy?.close(resolve))]);
});

describe.each(BACKENDS)('client metadata documents (%s)', (backend) => {
  let viaProxy: RelayProcess;
  beforeAll(async () => {
    const ca = { NODE_EXTRA_CA_CERTS: path.join(work, 'cert.pem') };
    viaProxy = await startRelay({ backend, env: { ...ca, HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`, NO_PROXY: '' } });
  });
  afterAll(async () => {
    await viaProxy?.stop();
  });

  test('a client id that is an https URL: fetched through the proxy, named by its document, kept, and used to the end', async () => {
    const device = await pairDevice(viaProxy, 'desk');
    const socket = await DeviceSocket.online(viaProxy.port, device.token);
    const before = fetched.length;
    const { verifier, challenge } = pkce();
    const page = await viaProxy.call('GET', `/authorize?${authorizeQuery(PUBLIC_ID, challenge)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Connect <b class="name">Metadata Client</b> to Notifier?');
    expect(tunnels).toContain('client.example.com:443');
    const rid = pageRid(page.text);
    expect((await consentFrame(socket, rid)).clientId).toBe(PUBLIC_ID);
    const approved = await decide(viaProxy, device.token, rid, 'approve');
    const code = new URL(approved.json.redirect).searchParams.get('code')!;
    const tokens = await exchange(viaProxy, PUBLIC_ID, code, verifier);
    expect(tokens.json.access_token).toMatch(/^hra_/);
    expect(fetched.slice(before).filter((url) => url === '/mcp-client.json')).toHaveLength(1); // kept for its max-age
  });

  test('documents that cannot be used: a redirect, too large, naming another id, asking for a secret, a private host', async () => {
    const refused = async (relay: RelayProcess, clientId: string, reason: RegExp) => {
      const page = await relay.call('GET', `/authorize?${authorizeQuery(clientId, pkce().challenge)}`);
      expect([clientId, page.status, page.headers.location]).toEqual([clientId, 400, undefined]);
      expect(page.text).toMatch(reason);
    };
    await refused(viaProxy, 'https://client.example.com/redirect.json', /redirect \(302\)/);
    await refused(viaProxy, 'https://client.example.com/big.json', /larger than 5120 bytes/);
    await refused(viaProxy, 'https://client.example.com/other-id.json', /client_id is not/);
    await refused(viaProxy, 'https://client.example.com/secret.json', /must be none/);
    await refused(viaProxy, 'https://client.example.com/missing.json', /answered 404/);
    await refused(viaProxy, `https://localhost:${documentsPort}/local.json`, /not a public host/);
    await refused(viaProxy, 'https://10.0.0.1/x.json', /not a public address/);
    await refused(viaProxy, 'https://client.example.com/', /must have a path/);
    const token = await viaProxy.call('POST', '/token', {
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'https://client.example.com/big.json',
        refresh_token: 'x',
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect([token.status, token.json.error]).toEqual([401, 'invalid_client']);
  });

  test('the MCP SDK client uses its metadata document URL as client_id when discovery says the relay supports it', async () => {
    const device = await pairDevice(viaProxy, 'sdk-desk');
    const provider = new MemoryProvider(CALLBACK, 'Metadata Client', PUBLIC_ID); // names itself by its document
    const mcp = new URL(`${viaProxy.baseUrl}/mcp`);
    await expect(
      new Client({ name: 'cimd', version: '1' }).connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toBe(PUBLIC_ID); // no registration
    const url = provider.authorizationUrl!;
    const { devices } = (await viaProxy.call('GET', '/v1/device/devices', { token: device.token })).json;
    url.searchParams.set('device', String(devices.findIndex((d: { thisDevice: boolean }) => d.thisDevice) + 1));
    const rid = pageRid((await viaProxy.call('GET', `${url.pathname}${url.search}`)).text);
    const code = new URL((await decide(viaProxy, device.token, rid, 'approve')).json.redirect).searchParams.get('code')!;
    await new StreamableHTTPClientTransport(mcp, { authProvider: provider }).finishAuth(code);
    const client = new Client({ name: 'cimd', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider }));
    expect((await client.listTools()).tools).toHaveLength(4);
    await client.close();
  });
});
