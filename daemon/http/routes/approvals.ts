import type { NotifierCore } from '../../core/notifier.js';
import { errors } from '../../../protocol/errors.js';
import { queryText } from '../params.js';
import type { Route } from '../routes.js';

const NOTE = 'Approvals are granted by the person at the computer when a banner asks; here they can only be listed and revoked.';

/**
 * docs/api/actions.md#x12, approvals: read and revoke. There is deliberately no route that grants: only the person
 * can (docs/api/actions.md#x11), through the question a banner asks.
 */
export function approvalRoutes(core: NotifierCore): Route[] {
  return [
    { method: 'GET', path: '/v1/actions/approvals', handle: () => ({ ...core.approvals.list(), note: NOTE }) },
    {
      method: 'DELETE',
      path: '/v1/actions/approvals',
      handle: async (req) => {
        const app = queryText(req, 'app', { required: true });
        const template = queryText(req, 'template');
        const host = queryText(req, 'host');
        const commands = queryText(req, 'commands');
        let revoked: boolean;
        let what: string;
        if (template) [revoked, what] = [await core.approvals.revokeTemplate(app, template), `${app} / ${template}`];
        else if (host) [revoked, what] = [await core.approvals.revokeHost(app, host), `${app} / ${host}`];
        else if (commands === 'true') [revoked, what] = [await core.approvals.revokeCommands(app), `${app} / commands`];
        else if (commands !== undefined) throw errors.approvalsCannotGrant();
        else throw errors.missingField('template');
        if (!revoked) throw errors.noApproval(what);
        return { ok: true };
      },
    },
  ];
}
