// The OAuth server's pages (docs/relay-api.md#ra104, #ra105, #ra113): `GET /authorize` and the consent page's
// helpers (its poll, the approval-code form, Deny), and the device flow's `/activate` pages. They belong to the
// pages, not to clients. None of them approves anything by itself: approval is the person's, on the computer, or
// with the 6-digit code the computer shows — which no route ever returns. What goes back to the client is a
// redirect with `error` (RA104); what cannot go back is a page saying why; refusals of the forms' bodies are
// OAuth's JSON (oauthErrors, routes/oauth.ts).

import type { Request, Response } from 'express';
import { answerJson } from '../../../common/json-answer.js';
import { RelayError } from '../../../protocol/relay/errors.js';
import { oauthMethodNotAllowed } from '../../../protocol/relay/oauth-errors.js';
import { findDevice, isOnline } from '../../core/devices.js';
import type { Relay } from '../../core/relay.js';
import { iso } from '../../core/time.js';
import { log } from '../../log.js';
import { redirectAllowed, redirectHost, type OAuthClient } from '../../oauth/client-rules.js';
import { findClient } from '../../oauth/clients.js';
import { findByUserCode } from '../../oauth/device-flow.js';
import { CODE_CHALLENGE, MAX_STATE_CHARS } from '../../oauth/limits.js';
import { activateConfirm, activateForm, consentPage, formTargetOf, messagePage, newNonce, pageHeaders } from '../../oauth/pages.js';
import {
  beginRequest,
  chooseDevice,
  formatUserCode,
  pageStatus,
  readRequest,
  redirectFor,
  requestDevice,
  settleRequest,
  type DeviceChoice,
  type NewRequest,
  type Settled,
} from '../../oauth/requests.js';
import { scopeAllowed } from '../../oauth/tokens.js';
import type { OAuthRequestRow } from '../../store/schema.js';
import { readForm } from '../form.js';
import { requestOrigin } from '../origin.js';
import { otherMethods, route, type Call, type RouteGroup } from '../route.js';
import { oauthErrors } from './oauth.js';

/** Sends a page with its headers (RA105). `formTarget`: where its forms may be redirected to. */
function sendPage(res: Response, status: number, render: (nonce: string) => string, formTarget?: string): void {
  const nonce = newNonce();
  const html = render(nonce);
  res.status(status);
  for (const [name, value] of Object.entries(pageHeaders(nonce, formTarget))) res.setHeader(name, value);
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
}

const sendMessage = (res: Response, status: number, title: string, ...paragraphs: string[]): void =>
  sendPage(res, status, (nonce) => messagePage(nonce, title, paragraphs));

/** A redirect the browser follows (never cached). */
function redirect(res: Response, location: string): void {
  res.status(302).setHeader('Location', location).setHeader('Cache-Control', 'no-store').setHeader('Referrer-Policy', 'no-referrer').end();
}

/** A query parameter given once, as text (anything else reads as absent). */
function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' ? value : undefined;
}

// --- GET /authorize (RA104) ----------------------------------------------------------------------------------

/**
 * RA104: what `/authorize` asks, checked: the client, its return address and the query's checks. 400 pages for
 * what cannot go back to the client; 302 with `error` for the rest. Undefined once answered.
 */
async function readAuthorization(relay: Relay, req: Request, res: Response): Promise<NewRequest | undefined> {
  const origin = requestOrigin(req);
  let client: OAuthClient | undefined;
  try {
    client = await findClient(relay, queryText(req, 'client_id'));
  } catch (error) {
    return void sendMessage(
      res,
      400,
      "This app's description could not be used",
      (error as Error).message,
      'Start the connection again from the app.',
    );
  }
  if (!client)
    return void sendMessage(
      res,
      400,
      'Unknown app',
      'This app is not registered on this relay (or registered too long ago). Start the connection again from the app.',
    );
  const redirectUri = queryText(req, 'redirect_uri');
  if (redirectUri === undefined || !redirectAllowed(client.redirectUris, redirectUri))
    return void sendMessage(
      res,
      400,
      'Unknown return address',
      `redirect_uri is not an address ${client.name} registered, so this page cannot send you back.`,
    );
  const state = queryText(req, 'state');
  const back = (error: string, description: string): undefined => void redirectError(res, redirectUri, error, description, state, origin);
  if (queryText(req, 'response_type') !== 'code') return back('unsupported_response_type', 'response_type must be code');
  const challenge = queryText(req, 'code_challenge');
  if (queryText(req, 'code_challenge_method') !== 'S256' || challenge === undefined || !CODE_CHALLENGE.test(challenge))
    return back('invalid_request', 'PKCE is required: code_challenge (43 characters of A-Z a-z 0-9 - _) with code_challenge_method S256');
  if (state !== undefined && state.length > MAX_STATE_CHARS)
    return back('invalid_request', `state has at most ${MAX_STATE_CHARS} characters`);
  const resource = queryText(req, 'resource');
  if (resource !== undefined && resource.replace(/\/+$/, '') !== `${origin}/mcp`)
    return back('invalid_target', `resource must be ${origin}/mcp`);
  if (!scopeAllowed(queryText(req, 'scope'))) return back('invalid_scope', 'the only scope is notify');
  return { flow: 'code', client, origin, redirectUri, codeChallenge: challenge, state, resource };
}

/** RA104: a refusal that goes back to the client: its redirect address with `error` (and `state`, `iss`). */
function redirectError(
  res: Response,
  redirectUri: string,
  error: string,
  description: string,
  state: string | undefined,
  origin: string,
): void {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state !== undefined) url.searchParams.set('state', state);
  url.searchParams.set('iss', origin);
  redirect(res, url.toString());
}

/** RA104: the computer the approval goes to (`device=N`, else the one seen last); undefined once answered. */
async function chooseComputer(relay: Relay, req: Request, res: Response): Promise<DeviceChoice | undefined> {
  const choice = await chooseDevice(relay, queryText(req, 'device'), relay.clock());
  if (choice === 'out_of_range')
    return void sendMessage(res, 400, 'No such computer', 'device must be a number from 1 to the number of paired computers.');
  if (choice === 'none')
    return void sendMessage(
      res,
      200,
      'Pair Notifier first',
      'No computer is paired with this relay yet, so nobody could approve this connection.',
      "Turn on the relay in Notifier's settings on your computer, then start the connection again from the app.",
    );
  return choice;
}

/** RA104, RA112: the request begins on the computer (its banner shows), unless its limits say no; undefined once answered. */
async function begin(relay: Relay, res: Response, choice: DeviceChoice, asked: NewRequest): Promise<OAuthRequestRow | undefined> {
  let begun;
  try {
    begun = await beginRequest(relay, choice.device.id, asked);
  } catch (error) {
    log.error(`an authorization request could not begin: ${(error as Error).stack ?? String(error)}`, {
      requestId: res.locals.requestId as string,
    });
    return void sendMessage(res, 502, 'The approval could not start', 'Try again in a moment.');
  }
  if ('limited' in begun)
    return void sendMessage(
      res,
      429,
      'Too many approvals',
      begun.limited === 'waiting'
        ? 'Three connection requests are already waiting on this computer. Approve or deny them first, or wait ten minutes.'
        : 'Twelve connection requests were started on this computer in the last hour. Try again later.',
    );
  return begun.row;
}

/** The same `/authorize` address, for the approval to go to computer number `index` instead. */
const linkForDevice =
  (req: Request) =>
  (index: number): string => {
    const query = new URLSearchParams(req.query as Record<string, string>);
    query.set('device', String(index));
    return `/authorize?${query.toString()}`;
  };

// --- The consent page and its forms (RA105, RA113) -----------------------------------------------------------

/** A request of a flow that a page's form names (a forged or unknown id, or the other flow's: undefined). */
async function knownRequest(relay: Relay, rid: string | null, flow: 'code' | 'device'): Promise<OAuthRequestRow | undefined> {
  const deviceId = requestDevice(relay, rid);
  const row = deviceId ? await readRequest(relay, deviceId, rid!) : undefined;
  return row?.flow === flow ? row : undefined;
}

const UNKNOWN_REQUEST = ['This connection request is unknown', 'It may have expired. Start the connection again from the app.'] as const;

const wrongCode = (triesLeft: number): string => `That code is wrong: ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`;

/**
 * RA105, RA113: a code form's post: the request it names (of this flow) is approved with the digits typed. An
 * unknown request, or a computer with too many keys, is answered here (with a page, and undefined).
 */
async function approveByCode(
  relay: Relay,
  req: Request,
  res: Response,
  flow: 'code' | 'device',
): Promise<Exclude<Settled, { kind: 'unknown' }> | undefined> {
  const form = await readForm(req);
  const known = await knownRequest(relay, form.get('rid'), flow);
  let settled: Settled = { kind: 'unknown' };
  try {
    if (known) settled = await settleRequest(relay, known.device_id, known.id, 'approve', (form.get('code') ?? '').replace(/\D/g, ''));
  } catch (error) {
    return void tooManyKeysPage(res, error);
  }
  if (settled.kind === 'unknown') return void sendMessage(res, 400, ...UNKNOWN_REQUEST);
  return settled;
}

/** RA105, RA113: a Deny form's post: the request it names (of this flow) is denied; undefined once answered. */
async function denyByForm(relay: Relay, req: Request, res: Response, flow: 'code' | 'device'): Promise<OAuthRequestRow | undefined> {
  const form = await readForm(req);
  const known = await knownRequest(relay, form.get('rid'), flow);
  const settled = known ? await settleRequest(relay, known.device_id, known.id, 'deny') : { kind: 'unknown' as const };
  if (settled.kind === 'unknown' || settled.kind === 'wrong') return void sendMessage(res, 400, ...UNKNOWN_REQUEST);
  return settled.row;
}

/** RA113: the second `/activate` page, for a waiting device-flow request: its approval code, or Deny. */
async function sendActivateConfirm(relay: Relay, res: Response, row: OAuthRequestRow, message?: string): Promise<void> {
  const device = await findDevice(relay.store.db, row.device_id);
  sendPage(res, 200, (nonce) =>
    activateConfirm(nonce, {
      rid: row.id,
      clientName: row.client_name,
      userCode: formatUserCode(row.user_code!),
      deviceName: device?.name ?? '',
      ...(message !== undefined && { message }),
    }),
  );
}

/** The consent page of a waiting request (RA105), with the other computers it could go to. */
async function renderConsent(
  relay: Relay,
  res: Response,
  row: OAuthRequestRow,
  options: { choice?: DeviceChoice; linkFor?: (index: number) => string; message?: string; status?: number },
): Promise<void> {
  const device = options.choice?.device ?? (await findDevice(relay.store.db, row.device_id));
  const others = options.choice
    ? options.choice.devices
        .map((other, i) => ({ name: other.name, href: options.linkFor!(i + 1), index: i + 1 }))
        .filter((other) => other.index !== options.choice!.index)
    : [];
  sendPage(
    res,
    options.status ?? 200,
    (nonce) =>
      consentPage(nonce, {
        rid: row.id,
        clientName: row.client_name,
        returnHost: redirectHost(row.redirect_uri),
        deviceName: device?.name ?? '',
        deviceOnline: device ? isOnline(device, relay.clock()) : false,
        expiresAt: iso(row.expires_at),
        others,
        message: options.message,
      }),
    formTargetOf(row.redirect_uri),
  );
}

/** RA105: a request closed before this answer: its redirect if it still has one, else a page saying so. */
function closedRequest(relay: Relay, res: Response, row: OAuthRequestRow): void {
  const location = redirectFor(relay, row, relay.clock());
  if (location !== undefined) return redirect(res, location);
  sendMessage(
    res,
    200,
    row.status === 'approved' ? 'This request was approved' : 'This request is closed',
    row.status === 'approved'
      ? 'The app already has its answer. You can close this page.'
      : 'It expired, was replaced by a newer one, or was denied. Start the connection again from the app.',
  );
}

/** RA109: the computer already has 20 active keys: the approval waits until one is revoked. */
function tooManyKeysPage(res: Response, error: unknown): void {
  if (!(error instanceof RelayError)) throw error;
  sendMessage(res, error.status, 'This computer has too many keys', error.message);
}

/** RA113: how a device-flow request ended, for the person on the `/activate` page. */
function activateDone(res: Response, row: OAuthRequestRow): void {
  if (row.status === 'approved')
    return sendMessage(
      res,
      200,
      'Approved',
      `${row.client_name} can now send you notifications. You can close this page; the agent continues by itself.`,
    );
  if (row.status === 'denied') return sendMessage(res, 200, 'Denied', `${row.client_name} was not connected. You can close this page.`);
  sendMessage(res, 200, 'This request is closed', 'It expired or was replaced by a newer one. Start again from the agent.');
}

export function oauthPageRoutes(relay: Relay): RouteGroup {
  /** RA104: the browser flow begins: the checks, the computer, the request, then its consent page. */
  const authorize = async ({ req, res }: Call<'none'>) => {
    const asked = await readAuthorization(relay, req, res);
    if (!asked) return;
    const choice = await chooseComputer(relay, req, res);
    if (!choice) return;
    const row = await begin(relay, res, choice, asked);
    if (row) await renderConsent(relay, res, row, { choice, linkFor: linkForDevice(req) });
  };

  /** RA105: the page's poll: the status, and once decided the redirect. A forged id is 404. */
  const status = async ({ req, res }: Call<'none'>) => {
    const rid = queryText(req, 'rid');
    const deviceId = requestDevice(relay, rid);
    if (!deviceId) return answerJson(res, 404, { status: 'unknown' });
    const row = await readRequest(relay, deviceId, rid!);
    answerJson(res, 200, row ? pageStatus(relay, row, relay.clock()) : { status: 'unknown' });
  };

  /** RA105: the approval code typed on the page: right, it approves (302 with the code); wrong, the page again. */
  const code = async ({ req, res }: Call<'none'>) => {
    const settled = await approveByCode(relay, req, res, 'code');
    if (!settled) return;
    if (settled.kind === 'wrong') return renderConsent(relay, res, settled.row, { message: wrongCode(settled.triesLeft) });
    closedRequest(relay, res, settled.row);
  };

  /** RA105: Deny closes only this request. */
  const deny = async ({ req, res }: Call<'none'>) => {
    const row = await denyByForm(relay, req, res, 'code');
    if (row) closedRequest(relay, res, row);
  };

  /** RA113: the device flow's page: the user code first ... */
  const activateAsk = ({ req, res }: Call<'none'>) => sendPage(res, 200, (nonce) => activateForm(nonce, queryText(req, 'user_code') ?? ''));
  const activate = async ({ req, res }: Call<'none'>) => {
    const typed = (await readForm(req)).get('user_code') ?? '';
    const row = await findByUserCode(relay, typed);
    if (row) return sendActivateConfirm(relay, res, row);
    sendPage(res, 200, (nonce) => activateForm(nonce, typed, 'That code is wrong or expired. Check it, or start again from the agent.'));
  };

  /** ... then the approval code the computer shows, or Deny. */
  const activateApprove = async ({ req, res }: Call<'none'>) => {
    const settled = await approveByCode(relay, req, res, 'device');
    if (!settled) return;
    if (settled.kind === 'wrong') return sendActivateConfirm(relay, res, settled.row, wrongCode(settled.triesLeft));
    activateDone(res, settled.row);
  };
  const activateDeny = async ({ req, res }: Call<'none'>) => {
    const row = await denyByForm(relay, req, res, 'device');
    if (row) activateDone(res, row);
  };

  return {
    errors: oauthErrors,
    routes: [
      route({ method: 'GET', path: '/authorize', caller: 'none', handle: authorize }),
      route({ method: 'GET', path: '/authorize/status', caller: 'none', handle: status }),
      route({ method: 'POST', path: '/authorize/code', caller: 'none', handle: code }),
      route({ method: 'POST', path: '/authorize/deny', caller: 'none', handle: deny }),
      route({ method: 'GET', path: '/activate', caller: 'none', handle: activateAsk }),
      route({ method: 'POST', path: '/activate', caller: 'none', handle: activate }),
      route({ method: 'POST', path: '/activate/approve', caller: 'none', handle: activateApprove }),
      route({ method: 'POST', path: '/activate/deny', caller: 'none', handle: activateDeny }),
      otherMethods(['/authorize', '/authorize/status'], () => oauthMethodNotAllowed('GET')),
      otherMethods(['/authorize/code', '/authorize/deny', '/activate/approve', '/activate/deny'], () => oauthMethodNotAllowed('POST')),
    ],
  };
}
