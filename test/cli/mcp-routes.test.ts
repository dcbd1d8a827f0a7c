import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { TOOLS } from '../../cli/mcp/tools/index.js';
import { type DaemonProcess, startDaemon, tempFolder } from '../helpers/daemon.js';

// Every agent tool names the routes it calls (`Tool.routes`); a real daemon must have each of them, so a route
// renamed or removed in the daemon fails here instead of reaching an agent as a 404.
//
// Each route is sent the token and an empty JSON body `{}`, as the same request every time. Most routes answer 400
// to it (a field is missing), which is enough: only the route table itself answers 404 `not found: METHOD /path`
// or 405. The few that act on `{}` (POST /v1/dismissAll, DELETE /v1/history, PUT /v1/settings/quiet-hours) act on
// this daemon's temporary support folder. POST /v1/mcp/install would write agent configurations under HOME, but
// without a `client` it answers 400; HOME and the XDG folders point into a temporary folder all the same, should a
// route ever write there.

/** Stands in for a `{id}` path parameter: no app has this id, so `DELETE /v1/apps/{id}` removes nothing. */
const NO_SUCH_ID = 'mcp-routes-test-no-such-app';

const ROUTE = /^(GET|POST|PUT|DELETE) (\/v1\/\S+)$/;

let daemon: DaemonProcess;
let home: string;

beforeAll(async () => {
  home = await tempFolder('notifier-home-');
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    CODEX_HOME: path.join(home, '.codex'),
  };
  daemon = await startDaemon({ env });
});

afterAll(async () => {
  if (daemon) {
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  }
  if (home) await rm(home, { recursive: true, force: true });
});

/**
 * Sends `METHOD /path` with the token and `{}`; returns why the route table refused it (its 404 names the method
 * and path it did not find; 405 is a known path with another method), or undefined when a route answered.
 */
async function refusal(route: string): Promise<string | undefined> {
  const [, method, routePath] = ROUTE.exec(route) ?? [];
  if (!method || !routePath) return `${route}: not METHOD /v1/path`;
  const requestPath = routePath.replace('{id}', NO_SUCH_ID);
  const reply = await daemon.api(method, requestPath, { body: {} });
  const error = String(reply.json?.error ?? reply.text);
  const unknown = reply.status === 404 && error.includes(`${method} ${requestPath}`);
  return unknown || reply.status === 405 ? `${route}: ${reply.status} ${error}` : undefined;
}

describe("every agent tool's routes exist in the daemon", () => {
  test('the check catches a route the daemon does not have', async () => {
    expect(await refusal('GET /v1/no-such-route')).toMatch(/^GET \/v1\/no-such-route: 404 /);
    expect(await refusal('POST /v1/apps/{id}')).toMatch(/^POST \/v1\/apps\/\{id\}: 405 /);
    expect(await refusal('GET /v1/apps')).toBeUndefined();
  });

  test.each(TOOLS.map((tool) => [tool.name, tool.routes] as const))('%s', async (_name, routes) => {
    expect(routes.length).toBeGreaterThan(0);
    const refused: string[] = [];
    for (const route of routes) {
      const why = await refusal(route);
      if (why) refused.push(why);
    }
    expect(refused).toEqual([]);
  });
});
