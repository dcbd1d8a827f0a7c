// `/app/api/approvals…` (docs/app.md#approvals): what waits for the person's approval, what they granted, and the
// connector requests of the cloud relay with their codes. An answer here is the same answer as on a banner or in
// the tray (the private channel): whichever comes first wins, and every view hears of it.

import { GRANT_KINDS, type GrantKind } from '../../../protocol/app-api.js';
import { errors } from '../../../protocol/errors.js';
import { log } from '../../log.js';
import { bodyFlag, bodyObject, bodyText } from '../params.js';
import type { AppContext, AppRoute } from './api-route.js';

/** Withdraws one grant; false when there was none. */
function revoke(context: AppContext, kind: GrantKind, app: string, body: Record<string, unknown>): Promise<boolean> {
  const { approvals } = context.core;
  if (kind === 'commands') return approvals.revokeCommands(app);
  if (kind === 'callbackHost') return approvals.revokeHost(app, bodyText(body, 'host'));
  return approvals.revokeTemplate(app, bodyText(body, 'template'));
}

export function approvalRoutes(): AppRoute[] {
  return [
    { method: 'GET', path: '/app/api/approvals', handle: ({ context }) => context.approvals() },
    {
      method: 'POST',
      path: '/app/api/approvals/questions/:id',
      handle: async ({ req, params, context }) => {
        const allow = bodyFlag(bodyObject(req), 'allow');
        if (!(await context.core.approvals.answer(params.id!, allow))) throw errors.noSuchQuestion();
        return { ok: true };
      },
    },
    {
      method: 'POST',
      path: '/app/api/approvals/revoke',
      handle: async ({ req, context }) => {
        const body = bodyObject(req);
        const kind = bodyText(body, 'kind') as GrantKind;
        if (!GRANT_KINDS.includes(kind)) throw errors.invalidChoice('kind', GRANT_KINDS);
        const app = bodyText(body, 'app');
        if (!(await revoke(context, kind, app, body))) throw errors.noApproval(`${app} / ${body.host ?? body.template ?? kind}`);
        return { ok: true };
      },
    },
    {
      method: 'POST',
      path: '/app/api/approvals/connectors/:id',
      handle: async ({ req, params, context }) => {
        const approve = bodyFlag(bodyObject(req), 'approve');
        const answered = await context.core.relay.connectors.answer(params.id!, approve).catch((error: Error) => {
          log.error(`could not send an answer to the relay: ${error.message}`);
          throw errors.relayUnreachable(error.message);
        });
        if (!answered) throw errors.noSuchConnectorRequest();
        return { ok: true };
      },
    },
  ];
}
