// The agent's side of reply events for a test file (bench/rigs/webhooks.ts): certificates, a receiver that
// verifies every request with `standardwebhooks`, and a CONNECT proxy mapping the names to it; all stopped, and
// the folder removed, after the file's tests.

import { afterAll, beforeAll } from '@jest/globals';
import { ConnectProxy, makeCertificates, newWebhookSecret, WebhookReceiver, type Certificates } from '../../bench/rigs/webhooks.js';
import { tempFolder } from './daemon.js';

export * from '../../bench/rigs/webhooks.js';

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
