// A path whose % escapes do not decode (docs/relay-api.md#ra2): every route with a path parameter, taken from the
// relay's own route table (so a route added later is covered too), answers 400 `invalid_request` before any
// credential is looked at, and the relay logs one warning for it (a JSON line, beside the request's own) — never a
// stack trace.

import { describe, expect, test } from '@jest/globals';
import { waitFor } from '../../rigs/wait.js';
import type { Relay } from '../../relay/core/relay.js';
import { createApp } from '../../relay/http/app.js';
import { Readiness } from '../../relay/http/ready.js';
import type { Backend } from '../../relay/store/backend.js';
import { BACKENDS, pairWithKey, parseLogLines, useRelay } from '../helpers/relay.js';

/** The escapes a hostile prober sent: not hex, a lone %, a cut UTF-8 sequence, an encoded UTF-16 surrogate. */
const BROKEN = ['%ZZ', '%', '%E0%A4', '%ED%A0%80'];

interface RouteLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: RouteLayer[] };
}

/** Every [method, path] of the relay's Express app whose path has a parameter (`:name`). */
function routesWithParameters(): [string, string][] {
  const app = createApp({} as Relay, 0, new Readiness({} as Backend)); // building the routes uses nothing of the relay
  const found: [string, string][] = [];
  const walk = (stack: RouteLayer[]): void => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = [layer.route.path].flat().filter((path) => path.includes('/:'));
        const methods = Object.keys(layer.route.methods).filter((method) => method !== '_all');
        for (const path of paths) for (const method of methods.length > 0 ? methods : ['get']) found.push([method.toUpperCase(), path]);
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: RouteLayer[] } }).router.stack);
  return found;
}

describe.each(BACKENDS)('a broken %% escape in a path (%s)', (backend) => {
  const relay = useRelay({ backend });

  test('every route with a path parameter answers 400 invalid_request, with or without a credential; one log line each, no stack', async () => {
    const routes = routesWithParameters();
    expect(routes.map(([, path]) => path)).toEqual(expect.arrayContaining(['/v1/receipts/:id', '/v1/device/keys/:keyId']));
    const device = await pairWithKey(relay());
    const ids = new Set<string>();
    let sent = 0;
    for (const [method, route] of routes) {
      for (const escape of BROKEN) {
        // The broken escape in each parameter in turn; the others get a plain value.
        const names = route.match(/:[A-Za-z]+/g)!;
        for (const broken of names) {
          const path = names.reduce((text, name) => text.replace(name, name === broken ? escape : 'x'), route);
          for (const token of [undefined, device.token, device.key]) {
            const reply = await relay().call(method, path, { token });
            sent += 1;
            ids.add(reply.headers['x-request-id'] as string);
            expect([method, path, reply.status, reply.json?.error]).toEqual([method, path, 400, 'invalid_request']);
            expect(reply.json.message).toContain('%');
          }
        }
      }
    }
    expect(ids.size).toBe(sent);
    // The log comes through its own pipe: wait for the lines of every request (and then for a moment longer), then
    // read them. Each refusal is a warning and the request's own line, both JSON, tied by the request id.
    const logged = () => parseLogLines(relay().log()).filter((line) => ids.has(line.requestId as string));
    await waitFor(() => (logged().filter((line) => line.msg === 'request').length >= sent ? true : undefined), `${sent} request lines`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = logged();
    const warnings = lines.filter((line) => line.msg === 'refused: a broken % escape in the path');
    const requests = lines.filter((line) => line.msg === 'request');
    expect(warnings).toHaveLength(sent);
    expect(warnings.every((line) => line.level === 'warn')).toBe(true);
    expect(requests).toHaveLength(sent);
    expect(requests.every((line) => line.status === 400 && line.route === '(none)')).toBe(true);
    expect(new Set(warnings.map((line) => line.requestId))).toEqual(ids);
    expect(lines.filter((line) => !requests.includes(line) && !warnings.includes(line))).toEqual([]);
    // No stack trace anywhere in the log, and no line that is not JSON (parseLogLines throws on one).
    expect(relay().log()).not.toMatch(/\bat .*\.js:\d+/);
  });

  test('a path that decodes still reaches its route: %-encoded ids are read decoded', async () => {
    const device = await pairWithKey(relay());
    const missing = await relay().call('GET', '/v1/receipts/no%20such%2Did', { token: device.key });
    expect([missing.status, missing.json.error]).toEqual([404, 'not_found']);
  });
});
