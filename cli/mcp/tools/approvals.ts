// The approvals the person gave: listed and revoked, never granted (daemon/http/routes/approvals.ts).

import { APP, inputs, route, text } from './common.js';

export const listApprovals = route('list_approvals', 'List approvals', 'GET /v1/actions/approvals', {
  description:
    'Approvals the person gave (GET /v1/actions/approvals). Only the person can grant them; here they can be listed and revoked.',
  kind: 'read',
});

export const revokeApproval = route('revoke_approval', 'Revoke an approval', 'DELETE /v1/actions/approvals', {
  description:
    "Withdraw one template's command approval (template), a callback host's (host), or the app's command permission (commands: true) (DELETE /v1/actions/approvals).",
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
