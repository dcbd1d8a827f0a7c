// The OAuth side of the relay for tests: form posts, registration, PKCE, starting the browser flow and approving
// it on the computer's socket, as a person would.

import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import * as oauth from 'oauth4webapi';
import { DeviceSocket } from './device-socket.js';
import type { Reply } from './http.js';
import { pairDevice, type RelayProcess } from './relay.js';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** oauth4webapi's leave to speak plain http: the test relay listens on loopback without TLS. */
export const insecure = { [oauth.allowInsecureRequests]: true };

/**
 * With oauth4webapi, the real client: registers a device-flow client named `clientName` and starts its device
 * grant with `params` (scope, device, ...). The client and the relay's answer (user code, device code).
 */
export async function startDeviceGrant(as: oauth.AuthorizationServer, clientName: string, params: Record<string, string>) {
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { client_name: clientName, grant_types: [DEVICE_GRANT] }, insecure),
  );
  const client: oauth.Client = { client_id: registered.client_id };
  const started = await oauth.processDeviceAuthorizationResponse(
    as,
    client,
    await oauth.deviceAuthorizationRequest(as, client, oauth.None(), new URLSearchParams(params), insecure),
  );
  return { client, started };
}

/**
 * With oauth4webapi, the real client: the browser flow's start, a PKCE verifier and a state, and the page its
 * `/authorize` answers (at the server's authorization endpoint; `params` give the redirect URI and what else).
 */
export async function openAuthorizePage(
  relay: RelayProcess,
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  params: Record<string, string>,
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...params,
  }).toString();
  return { verifier, state, page: await relay.call('GET', `${url.pathname}${url.search}`) };
}

/** A paired computer with its socket open (the person's side). */
export interface Computer {
  deviceId: string;
  token: string;
  socket: DeviceSocket;
  /** Its number in pairing order, for `device=` (the computers of earlier tests stay paired and connected). */
  index: string;
}

export async function openComputer(relay: RelayProcess, name = 'desk'): Promise<Computer> {
  const device = await pairDevice(relay, name);
  const socket = await DeviceSocket.online(relay.port, device.token);
  return { ...device, socket, index: await deviceIndex(relay, device.token) };
}

/** A computer's number in pairing order, as `device=` takes it. */
export async function deviceIndex(relay: RelayProcess, deviceToken: string): Promise<string> {
  const { devices } = (await relay.call('GET', '/v1/device/devices', { token: deviceToken })).json;
  return String(devices.findIndex((one: { thisDevice: boolean }) => one.thisDevice) + 1);
}

/** A form post (application/x-www-form-urlencoded). */
export function postForm(
  relay: RelayProcess,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return relay.call('POST', path, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/** Registers a client and returns the registration answer. */
export async function register(relay: RelayProcess, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const answer = await relay.call('POST', '/register', {
    body: { client_name: 'Test connector', redirect_uris: ['http://127.0.0.1:9/callback'], ...body },
  });
  if (answer.status !== 201) throw new Error(`register answered ${answer.status}: ${answer.text}`);
  return answer.json;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The query of a valid `GET /authorize`, with `extra` over it. */
export function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:9/callback',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    ...extra,
  }).toString();
}

/** The request id the consent page carries. */
export function pageRid(html: string): string {
  const match = /data-rid="([0-9a-f]{72})"/.exec(html);
  if (!match) throw new Error(`no request id in the page: ${html.slice(0, 500)}`);
  return match[1]!;
}

/** The `consent` frame of a request, as the computer receives it. */
export function consentFrame(socket: DeviceSocket, rid: string, match: (frame: Record<string, any>) => boolean = () => true) {
  return socket.waitFor((f) => typeof f === 'object' && f.type === 'consent' && f.id === rid && match(f), `consent ${rid}`) as Promise<
    Record<string, any>
  >;
}

/** The `consent` frame of a device-flow request, found by its user code (the request's id is not known yet). */
export function userCodeFrame(socket: DeviceSocket, userCode: string) {
  return socket.waitFor(
    (f) => typeof f === 'object' && f.type === 'consent' && f.userCode === userCode,
    `consent with user code ${userCode}`,
  ) as Promise<Record<string, any>>;
}

/** The person decides on the computer. */
export const decide = (relay: RelayProcess, deviceToken: string, id: string, decision: 'approve' | 'deny'): Promise<Reply> =>
  relay.call('POST', '/v1/device/consent', { token: deviceToken, body: { id, decision } });

/** Where a 302 points, as a URL. */
export const location = (reply: Reply): URL => new URL(String(reply.headers.location));

/**
 * The browser flow to the code: /authorize (the page), the person approves on the computer, the page's poll gets
 * the redirect. Returns the code and the verifier.
 */
export async function authorizeAndApprove(
  relay: RelayProcess,
  deviceToken: string,
  clientId: string,
  extra: Record<string, string> = {},
): Promise<{ code: string; verifier: string; rid: string }> {
  const { verifier, challenge } = pkce();
  const page = await relay.call('GET', `/authorize?${authorizeQuery(clientId, challenge, extra)}`);
  if (page.status !== 200) throw new Error(`/authorize answered ${page.status}: ${page.text.slice(0, 300)}`);
  const rid = pageRid(page.text);
  const decided = await decide(relay, deviceToken, rid, 'approve');
  if (decided.status !== 200) throw new Error(`approving answered ${decided.status}: ${decided.text}`);
  const status = await relay.call('GET', `/authorize/status?rid=${rid}`);
  const code = new URL(status.json.redirect).searchParams.get('code')!;
  return { code, verifier, rid };
}

/** Exchanges a code (public client). */
export const exchange = (relay: RelayProcess, clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  postForm(relay, '/token', {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: 'http://127.0.0.1:9/callback',
    ...extra,
  });

/** Whether an agent credential (an access token) still opens the agent routes. */
export const opensAgentRoutes = async (relay: RelayProcess, token: string): Promise<boolean> =>
  (await relay.call('GET', '/v1/status', { token })).status === 200;

/** What two presentations of one code or refresh token got, in order: 200 for tokens, else the OAuth error. */
export const outcomes = (replies: Reply[]): (number | string)[] => replies.map((reply) => reply.json.error ?? reply.status).sort();

/** A refresh (public client): a new refresh token in place of the one given, and a new access token. */
export const refreshTokens = (relay: RelayProcess, clientId: string, refreshToken: string) =>
  postForm(relay, '/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });

/**
 * The device flow to the tokens: `/device_authorization` on the computer numbered `deviceIndex`, the person
 * approves the banner (found by its user code) on the computer, the agent's poll gets the tokens.
 */
export async function connectByDeviceFlow(relay: RelayProcess, computer: Computer, clientId: string): Promise<Record<string, any>> {
  const started = await postForm(relay, '/device_authorization', { client_id: clientId, device: computer.index });
  if (started.status !== 200) throw new Error(`/device_authorization answered ${started.status}: ${started.text}`);
  const frame = await userCodeFrame(computer.socket, started.json.user_code);
  const decided = await decide(relay, computer.token, frame.id, 'approve');
  if (decided.status !== 200) throw new Error(`approving answered ${decided.status}: ${decided.text}`);
  const tokens = await postForm(relay, '/token', { grant_type: DEVICE_GRANT, client_id: clientId, device_code: started.json.device_code });
  if (tokens.status !== 200) throw new Error(`the device grant answered ${tokens.status}: ${tokens.text}`);
  return tokens.json;
}

/**
 * An MCP SDK OAuthClientProvider that keeps everything in memory and records where it would send the browser. With
 * `clientMetadataUrl` it names itself by that client metadata document instead of registering.
 */
export class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  authorizationUrl: URL | undefined;
  private verifier = '';

  constructor(
    readonly redirectUrl: string,
    readonly clientName = 'MCP SDK test client',
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation = (): OAuthClientInformationMixed | undefined => this.client;
  saveClientInformation = (info: OAuthClientInformationMixed): void => void (this.client = info);
  tokens = (): OAuthTokens | undefined => this.saved;
  saveTokens = (tokens: OAuthTokens): void => void (this.saved = tokens);
  redirectToAuthorization = (url: URL): void => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string): void => void (this.verifier = verifier);
  codeVerifier = (): string => this.verifier;
}
