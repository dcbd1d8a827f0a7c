// The approvals the person gave: listed and revoked, never granted (daemon/http/routes/approvals.ts).

import { APP, inputs, route, text } from './common.js';

export const listApprovals = route({
  name: 'list_approvals',
  title: 'List approvals',
  description:
    'Approvals the person gave (GET /v1/actions/approvals). Only the person can grant them; here they can be listed and revoked.',
  method: 'GET',
  path: '/v1/actions/approvals',
  inputSchema: inputs({}),
  kind: 'read',
});

export const revokeApproval = route({
  name: 'revoke_approval',
  title: 'Revoke an approval',
  description:
    "Withdraw one template's command approval (template), a callback host's (host), or the app's command permission (commands: true) (DELETE /v1/actions/approvals).",
  method: 'DELETE',
  path: '/v1/actions/approvals',
  inputSchema: inputs(
    {
      app: APP,
      template: text('The template whose code approval goes.'),
      host: text('A callback host.'),
      commands: { type: 'boolean', const: true, description: "true: the app's command permission." },
    },
    ['app'],
  ),
  kind: 'replace',
});
