import { errors } from '../../../protocol/errors.js';
import { queryText } from '../params.js';
import { APP_QUERY, type ApiRoute } from '../api-route.js';
import { approvalsSchema } from '../../../protocol/schemas/approvals.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import { text } from '../../../protocol/schemas/json-schema.js';

const NOTE = 'Approvals are granted by the person at the computer when a banner asks; here they can only be listed and revoked.';

/**
 * docs/api/actions.md#x12, approvals: read and revoke. There is deliberately no route that grants: only the person
 * can (docs/api/actions.md#x11), through the question a banner asks.
 */
export function approvalRoutes(): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/actions/approvals',
      summary: 'What the person allowed apps to run',
      tag: 'Approvals',
      reply: approvalsSchema,
      errors: {},
      examples: [{ summary: 'Every approval' }],
      handler: (core) => () => ({ ...core.approvals.list(), note: NOTE }),
    },
    {
      method: 'DELETE',
      path: '/v1/actions/approvals',
      summary: 'Revoke an approval',
      description: "A template's code, a callback host, or the app's permission to run commands; the person is asked again next time.",
      tag: 'Approvals',
      query: [
        APP_QUERY,
        { name: 'template', schema: text(), description: "revoke this template's approved code" },
        { name: 'host', schema: text(), description: 'revoke this callback host (host:port)' },
        {
          name: 'commands',
          schema: { const: 'true' },
          description: "true revokes the app's permission to run commands (nothing else is accepted)",
        },
      ],
      reply: okSchema,
      errors: {
        400: 'app is missing, or none of template, host and commands is given',
        403: 'commands is not true: nothing can grant here',
        404: 'there was no such approval',
      },
      examples: [{ summary: 'A callback host', query: { app: 'com.example.build', host: 'hooks.example.com:443' } }],
      handler: (core) => async (req) => {
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
