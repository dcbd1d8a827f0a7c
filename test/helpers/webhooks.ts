// The agent's side of reply events for a test file (rigs/webhooks.ts): certificates, a receiver that
// verifies every request with `standardwebhooks`, and a CONNECT proxy mapping the names to it; all stopped, and
// the folder removed, after the file's tests.

import { afterAll, beforeAll } from '@jest/globals';
import {
  ConnectProxy,
  makeCertificates,
  modernRequest,
  newWebhookSecret,
  WebhookReceiver,
  type Certificates,
} from '../../rigs/webhooks.js';
import { tempFolder } from './daemon.js';
import type { Reply } from './http.js';
import type { RelayProcess } from './relay.js';

export * from '../../rigs/webhooks.js';

/** Public-looking names the proxy tunnels to the receiver (and the certificate covers). */
export const HOOK_NAMES = ['hooks.example.com', 'agent.example.org', 'elsewhere.example.net'];

export interface WebhookRig {
  certificates: Certificates;
  receiver: WebhookReceiver;
  proxy: ConnectProxy;
  /** The environment a relay process needs to reach the receiver: the proxy, and the CA to trust. */
  env: Record<string, string>;
  /** A new callback on the receiver: its URL and secret (the receiver verifies that path with it). */
  hook(path: string, host?: string): { url: string; secret: string; path: string };
}

export function useWebhookRig(): () => WebhookRig {
  let rig: WebhookRig | undefined;
  beforeAll(async () => {
    const certificates = await makeCertificates(await tempFolder('notifier-webhooks-'), HOOK_NAMES);
    const receiver = await WebhookReceiver.start(certificates);
    const proxy = await ConnectProxy.start(receiver.port, HOOK_NAMES);
    rig = {
      certificates,
      receiver,
      proxy,
      env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile },
      hook: (path, host = HOOK_NAMES[0]!) => {
        const secret = newWebhookSecret();
        receiver.secrets.set(path, secret);
        return { url: `https://${host}${path}`, secret, path };
      },
    };
  });
  afterAll(async () => {
    await rig?.receiver.close();
    await rig?.proxy.close();
  });
  return () => rig!;
}

/** One 2026-07-28 call to `/mcp` with an agent credential (docs/relay-api.md#ra201); `headers` go over the standard ones. */
export function modernCall(
  relay: RelayProcess,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Reply> {
  const request = modernRequest(method, params);
  return relay.call('POST', '/mcp', { token, body: request.body, headers: { ...request.headers, ...headers } });
}

/** The `delivery` of an `events/subscribe` to a hook (docs/relay-api.md#ra204). */
export const webhookDelivery = (hook: { url: string; secret: string }) => ({ mode: 'webhook', url: hook.url, secret: hook.secret });

/** `events/subscribe` of `notification.reply` to a hook, with `extra` params (a cursor, say). */
export const subscribeHook = (
  relay: RelayProcess,
  token: string,
  hook: { url: string; secret: string },
  extra: Record<string, unknown> = {},
): Promise<Reply> =>
  modernCall(relay, token, 'events/subscribe', { name: 'notification.reply', delivery: webhookDelivery(hook), ...extra });
