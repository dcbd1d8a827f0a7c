import { errors } from '../../../protocol/errors.js';
import { approvalsSchema } from '../../../protocol/schemas/approvals.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import type { Core } from '../../core/core.js';
import { APP_QUERY, ok, query, type Route } from '../route.js';

type Services = Pick<Core, 'approvals'>;

const NOTE = 'Approvals are granted by the person at the computer when a banner asks; here they can only be listed and revoked.';

/** What DELETE /v1/actions/approvals revokes: a template's code, a callback host, or the app's permission to run commands. */
interface Revocation {
  app: string;
  template?: string;
  host?: string;
  commands?: string;
}

/** Revokes one approval; 404 when there was none, 403 for a `commands` that is not `true` (nothing grants here). */
export async function revokeApproval(services: Services, { app, template, host, commands }: Revocation): Promise<void> {
  const { approvals } = services;
  let revoked: boolean;
  let what: string;
  if (template) [revoked, what] = [await approvals.revokeTemplate(app, template), `${app} / ${template}`];
  else if (host) [revoked, what] = [await approvals.revokeHost(app, host), `${app} / ${host}`];
  else if (commands === 'true') [revoked, what] = [await approvals.revokeCommands(app), `${app} / commands`];
  else if (commands !== undefined) throw errors.approvalsCannotGrant();
  else throw errors.missingField('template');
  if (!revoked) throw errors.noApproval(what);
}

/**
 * docs/api/actions.md#x12, approvals: read and revoke. There is deliberately no route that grants: only the person
 * can (docs/api/actions.md#x11), through the question a banner asks.
 */
export function approvalRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      path: '/v1/actions/approvals',
      door: 'token',
      summary: 'What the person allowed apps to run',
      tag: 'Approvals',
      reply: approvalsSchema,
      errors: {},
      examples: [{ summary: 'Every approval' }],
      handle: ({ services }) => ({ ...services.approvals.list(), note: NOTE }),
    },
    {
      method: 'DELETE',
      path: '/v1/actions/approvals',
      door: 'token',
      summary: 'Revoke an approval',
      description: "A template's code, a callback host, or the app's permission to run commands; the person is asked again next time.",
      tag: 'Approvals',
      query: [
        APP_QUERY,
        query.text('template', "revoke this template's approved code"),
        query.text('host', 'revoke this callback host (host:port)'),
        // Read as given, empty included: anything but `true` is an attempt to grant, which is refused (403).
        query.read(
          'commands',
          "true revokes the app's permission to run commands (nothing else is accepted)",
          { const: 'true' },
          (text) => text,
        ),
      ],
      reply: okSchema,
      errors: {
        400: 'app is missing, or none of template, host and commands is given',
        403: 'commands is not true: nothing can grant here',
        404: 'there was no such approval',
      },
      examples: [{ summary: 'A callback host', query: { app: 'com.example.build', host: 'hooks.example.com:443' } }],
      handle: ({ services, query }) => revokeApproval(services, query as unknown as Revocation).then(ok),
    },
  ];
}
