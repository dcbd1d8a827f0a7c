// `/app/api/approvals…` (docs/app.md#approvals): what waits for the person's approval, what they granted or denied
// from now on, and the connector requests of the cloud relay with their codes. An answer here is the same answer as
// on a banner or in the tray (the private channel): whichever comes first wins, and every view hears of it.

import { APP_API, type OkAnswer } from '../../../protocol/app-api.js';
import {
  type ApprovalsAnswer,
  type ConnectorDecisionRequest,
  GRANT_KINDS,
  type GrantKind,
  type QuestionAnswerRequest,
  type RevokeRequest,
} from '../../../protocol/app-api-approvals.js';
import { ApiError, errors } from '../../../protocol/errors.js';
import { approvalsAnswerSchema } from '../../../protocol/schemas/app-api.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import type { Denial } from '../../core/approvals/approvals.js';
import { log } from '../../log.js';
import { bodyFlag, bodyText } from '../params.js';
import type { PathParameter, Route } from '../route.js';
import type { Services as AllServices } from '../services.js';
import { type SentBody, windowRoute } from './window-route.js';

type Services = Pick<AllServices, 'approvals' | 'relay' | 'approvalsView'>;

const ID: Readonly<Record<string, PathParameter>> = { id: { description: "the question's or the request's id" } };

/**
 * What a revoke, a deny or an ask-again names, read from its body: `{kind, app}`, with the `host` or the `template`
 * its kind needs (the same shape as a denial).
 */
function grantOf(body: Record<string, unknown>): Denial {
  const kind = bodyText(body, 'kind') as GrantKind;
  if (!GRANT_KINDS.includes(kind)) throw errors.invalidChoice('kind', GRANT_KINDS);
  const app = bodyText(body, 'app');
  if (kind === 'commands') return { kind, app };
  if (kind === 'callbackHost') return { kind, app, host: bodyText(body, 'host') };
  return { kind, app, template: bodyText(body, 'template') };
}

/** How a refusal names it: "Deployer / api.example.com". */
function nameOf(grant: Denial): string {
  if (grant.kind === 'callbackHost') return `${grant.app} / ${grant.host}`;
  if (grant.kind === 'templateCode') return `${grant.app} / ${grant.template}`;
  return `${grant.app} / commands`;
}

/** Withdraws one grant; false when there was none. */
function revoke({ approvals }: Services, grant: Denial): Promise<boolean> {
  if (grant.kind === 'commands') return approvals.revokeCommands(grant.app);
  if (grant.kind === 'callbackHost') return approvals.revokeHost(grant.app, grant.host);
  return approvals.revokeTemplate(grant.app, grant.template);
}

/** A route that does `act` to the grant its body names, and answers `{ok: true}`. */
function grantRoute(path: string, summary: string, act: (services: Services, grant: Denial) => Promise<void>): Route<Services> {
  return windowRoute<Services, OkAnswer, RevokeRequest>({
    method: 'POST',
    path,
    summary,
    reply: okSchema,
    handle: async ({ services, body }) => {
      await act(services, grantOf(body));
      return { ok: true };
    },
  });
}

/**
 * A route that answers what waits under `{id}` (a question, a connector's request) with the yes or no of its body's
 * `field`; `answer` is false when nothing waits there any more (answered elsewhere, or expired), and then `gone` refuses.
 */
function answerRoute<Body extends object>(
  path: string,
  summary: string,
  field: keyof Body & string,
  answer: (services: Services, id: string, yes: boolean) => Promise<boolean>,
  gone: () => ApiError,
): Route<Services> {
  return windowRoute<Services, OkAnswer, Body>({
    method: 'POST',
    path,
    summary,
    params: ID,
    reply: okSchema,
    handle: async ({ services, params, body }) => {
      if (!(await answer(services, params.id!, bodyFlag<SentBody<Body>>(body, field)))) throw gone();
      return { ok: true };
    },
  });
}

export function approvalRoutes(): Route<Services>[] {
  return [
    windowRoute<Services, ApprovalsAnswer>({
      method: 'GET',
      path: APP_API.approvals,
      summary: 'What waits for the person, what they granted, and the connector requests',
      reply: approvalsAnswerSchema,
      handle: ({ services }) => services.approvalsView(),
    }),
    answerRoute<QuestionAnswerRequest>(
      APP_API.question,
      'Allow or deny what a question asks',
      'allow',
      ({ approvals }, id, allow) => approvals.answer(id, allow),
      errors.noSuchQuestion,
    ),
    grantRoute(APP_API.revoke, 'Take back something the person granted', async (services, grant) => {
      if (!(await revoke(services, grant))) throw errors.noApproval(nameOf(grant));
    }),
    grantRoute(APP_API.deny, 'Deny something from now on: refused without asking the person', (services, grant) =>
      services.approvals.deny(grant),
    ),
    grantRoute(APP_API.askAgain, 'Forget a denial: the person is asked again next time', async (services, grant) => {
      if (!(await services.approvals.askAgain(grant))) throw errors.noDenial(nameOf(grant));
    }),
    answerRoute<ConnectorDecisionRequest>(
      APP_API.connector,
      "Approve or deny a connector's request",
      'approve',
      ({ relay }, id, approve) =>
        relay.connectors.answer(id, approve).catch((error: Error) => {
          log.error(`could not send an answer to the relay: ${error.message}`);
          throw error instanceof ApiError ? error : errors.relayFailed(error.message);
        }),
      errors.noSuchConnectorRequest,
    ),
  ];
}
