// The person's window as the benchmarks use it: signed in as the person (the private channel's `open`, the
// forwarding file, the sign-in link), and its live event stream, each row stamped as it arrives.

import http from 'node:http';
import { APP_CSRF_HEADER, type HistoryRow } from '../../protocol/app-api.js';
import { sessionCsrf, signInLink } from '../../rigs/person-app.js';
import type { RunningDaemon } from './daemon.js';

/** Signs in as the person: the headers every request of the window carries. */
export async function signIn(daemon: RunningDaemon): Promise<Record<string, string>> {
  const link = new URL(await signInLink(daemon.supportDir));
  const signedIn = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(`${daemon.baseUrl}${link.pathname}${link.search}`, resolve).on('error', reject),
  );
  let page = '';
  for await (const chunk of signedIn) page += String(chunk);
  const cookie = String(signedIn.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  if (signedIn.statusCode !== 200 || !cookie) throw new Error(`sign-in answered ${signedIn.statusCode}`);
  return { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin', [APP_CSRF_HEADER]: sessionCsrf(page) };
}

/** `GET /app/api/events`: `onRow` is told each row event with the moment it arrived (performance.now()). */
export async function watchRows(
  daemon: RunningDaemon,
  session: Record<string, string>,
  onRow: (row: HistoryRow, at: number) => void,
): Promise<{ stop(): void }> {
  const stream = await new Promise<http.ClientRequest>((resolve, reject) => {
    const req = http.get(`${daemon.baseUrl}/app/api/events`, { headers: session, agent: false }, (res) => {
      let buffered = '';
      res.on('data', (chunk: Buffer) => {
        const at = performance.now();
        buffered += chunk.toString();
        for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (block.startsWith('event: row\n')) onRow(JSON.parse(block.slice(block.indexOf('data: ') + 6)).row as HistoryRow, at);
        }
      });
      resolve(req);
    });
    req.on('error', reject);
  });
  return { stop: () => stream.destroy() };
}
