// The relay's OAuth server, one node on the embedded database (durable), one request at a time:
//   npm run bench:relay-oauth [-- --rounds 500 --warmup 50]
//   - POST /token with the refresh grant, each with the refresh token the one before returned (refresh tokens
//     rotate): one locked transaction that marks the token used and writes a new refresh token and access token;
//   - an authorization-code round trip: GET /authorize (the consent page; the request stored, the consent frame
//     sent), the computer approving on its socket's frame (POST /v1/device/consent: the connector key and the
//     code), then POST /token with the code and the PKCE verifier;
//   - baseline: GET /health on the same relay process (HTTP and Express, no credential, no database).
// The relay runs pinned to CPU 0, this process (the client and the computer) on CPU 1.

import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { defineBenchmark } from './lib.js';
import { request } from './kit/http.js';
import { printLatencies } from './kit/print.js';
import { connectDevice, pairWithKey } from './kit/relay.js';

const CALLBACK = 'http://127.0.0.1:9/callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Runs `once` warmup + rounds times, one at a time; the milliseconds of the measured rounds. */
async function timed({ rounds, warmup }: { rounds: number; warmup: number }, once: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + rounds; i++) {
    const started = performance.now();
    await once();
    if (i >= warmup) samples.push(performance.now() - started);
  }
  return samples;
}

await defineBenchmark({
  title: 'Notifier relay benchmark: the OAuth server (one node, embedded database, durable)',
  options: { rounds: 500, warmup: 50 },
  needs: { relay: { env: { REGISTER_PER_HOUR: '1000' } } },
  async measure({ options, relay: node }) {
    console.log(`${options.rounds} rounds one at a time after ${options.warmup} warm-up rounds, per scenario\n`);
    // The computers: each approves every request the moment its consent frame arrives, and says when it did. A
    // computer takes 12 requests an hour (docs/relay-api.md#ra104), so the round trips use one after another.
    const approvals = new Map<string, (redirect: string) => void>();
    const computers = Math.ceil((options.warmup + options.rounds + 1) / 12);
    for (let i = 0; i < computers; i++) {
      const device = await pairWithKey(node);
      await connectDevice(node.port, device.token, (frame) => {
        if (frame.type !== 'consent' || frame.status !== 'pending') return;
        void node
          .call('POST', '/v1/device/consent', { token: device.token, body: { id: frame.id, decision: 'approve' } })
          .then((answer) => {
            approvals.get(frame.id!)?.(answer.json.redirect as string);
          });
      });
    }
    let trips = 0;
    const registered = await node.call('POST', '/register', { body: { client_name: 'bench', redirect_uris: [CALLBACK] } });
    const clientId = registered.json.client_id as string;
    const form = (fields: Record<string, string>) =>
      request(`${node.baseUrl}/token`, {
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams({ client_id: clientId, ...fields }).toString(),
      });

    /** One authorization-code round trip, to the tokens. */
    const roundTrip = async (): Promise<{ refresh_token: string }> => {
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: CALLBACK,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        device: String(1 + Math.floor(trips++ / 12)),
      });
      const page = await request(`${node.baseUrl}/authorize?${query}`);
      const rid = /data-rid="([0-9a-f]{72})"/.exec(page.body)?.[1];
      if (page.status !== 200 || !rid) throw new Error(`/authorize answered ${page.status}`);
      const redirect = await new Promise<string>((resolve) => approvals.set(rid, resolve));
      approvals.delete(rid);
      const code = new URL(redirect).searchParams.get('code')!;
      const tokens = await form({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK });
      if (tokens.status !== 200) throw new Error(`/token answered ${tokens.status}: ${tokens.body}`);
      return JSON.parse(tokens.body) as { refresh_token: string };
    };

    console.log('1/3 baseline: GET /health on the same relay ...');
    const baseline = await timed(options, async () => void (await request(`${node.baseUrl}/health`)));
    console.log('2/3 POST /token, refresh grant ...');
    let { refresh_token } = await roundTrip();
    const refresh = await timed(options, async () => {
      const answer = await form({ grant_type: 'refresh_token', refresh_token });
      if (answer.status !== 200) throw new Error(`refresh answered ${answer.status}: ${answer.body}`);
      ({ refresh_token } = JSON.parse(answer.body) as { refresh_token: string });
    });
    console.log('3/3 authorization-code round trip (authorize, approve on the socket, token) ...');
    const trip = await timed(options, async () => void (await roundTrip()));

    console.log('');
    printLatencies([
      ['baseline: GET /health', baseline],
      ['POST /token, refresh grant', refresh],
      ['authorization-code round trip (4 requests)', trip],
    ]);
  },
});
