// Every answer the window's API gives a test is checked against the contract of its route (daemon/http/route.ts):
// a success against the route's declared reply schema, a refusal against the one error body. So a route whose
// answer drifts from the type it declares (protocol/schemas/app-api.ts, protocol/app-api.ts) fails the test that
// called it, whichever test that is.

import { errorSchema } from '../../protocol/schemas/common.js';
import { WINDOW_ROUTES } from '../../daemon/http/api.js';
import { isFileReply, type Contract } from '../../daemon/http/route.js';
import { validator } from '../../daemon/http/validate.js';
import type { Reply } from './http.js';

/** The route of a request, found by its method and its path's pattern (`{name}` is one part, or the rest). */
function routeOf(method: string, path: string): Contract | undefined {
  const given = path.split('?')[0]!.split('/');
  return WINDOW_ROUTES.find((route) => {
    if (route.method !== method) return false;
    const parts = route.path.split('/');
    const last = parts.at(-1)!;
    const rest = last.startsWith('{') && route.params?.[last.slice(1, -1)]?.rest === true;
    if (rest ? given.length < parts.length : given.length !== parts.length) return false;
    return parts.every((part, index) => part.startsWith('{') || part === given[index]);
  });
}

const checkers = new Map<object, (value: unknown) => unknown>();
const checkerOf = (schema: object) => {
  let check = checkers.get(schema);
  if (!check) checkers.set(schema, (check = validator(schema)));
  return check;
};

/** Throws when a JSON answer of the window's API does not match its route's contract. */
export function checkWindowAnswer(method: string, path: string, reply: Reply): void {
  if (!path.startsWith('/app/api/') || reply.json === undefined) return;
  const route = routeOf(method, path);
  const schema = reply.status >= 400 ? errorSchema : route && !isFileReply(route.reply) ? route.reply : undefined;
  if (!schema) return;
  try {
    checkerOf(schema)(reply.json);
  } catch (error) {
    throw new Error(
      `${method} ${path} answered ${reply.status} outside its contract: ${(error as Error).message}\n${reply.text.slice(0, 1000)}`,
    );
  }
}
