// The answers of the person's window's own routes (`/app/api`, docs/app.md#the-api), as JSON Schemas: the same
// shapes protocol/app-api.ts gives the front end as types. The daemon's routes declare them, and the tests check
// every answer the window gets against its route's schema, so a type and its answer cannot drift apart. The routes
// that do what a `/v1` route does answer that route's schema.

import { CALLBACK_OUTCOMES, HELD_REASONS, MARKED_PRIORITIES } from '../app-api.js';
import { GRANT_KINDS, QUESTION_KINDS } from '../app-api-approvals.js';
import { PROGRAM_KEEPS } from '../desktop-programs.js';
import { RECEIPT_KINDS, SUPPRESS_SCOPES } from '../relay/receipts.js';
import { appId, notificationId, okWith } from './common.js';
import { historyRecordSchema } from './history.js';
import { flag, integer, list, map, number, object, oneOfText, text, timestamp, type JsonSchema } from './json-schema.js';
import { relayUsageSchema } from './relay.js';

/** `null`, or the schema's value. */
const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [{ type: 'null' }, schema] });

export const sessionAnswerSchema = object({ computerName: text("this computer's name") }, ['computerName']);

export const sessionsAnswerSchema = object(
  {
    sessions: list(
      object(
        {
          handle: text('names the session without revealing it'),
          browser: text('the browser that signed in, in a few words'),
          signedInAt: timestamp(),
          lastUsedAt: timestamp(),
          thisWindow: flag('the window that asks'),
        },
        ['handle', 'browser', 'signedInAt', 'lastUsedAt', 'thisWindow'],
      ),
    ),
  },
  ['sessions'],
);

export const appsAnswerSchema = object(
  {
    apps: list(
      object({ app: appId, appName: text(), hasIcon: flag(), count: integer(), unread: integer(), templates: list(text()) }, [
        'app',
        'appName',
        'hasIcon',
        'count',
        'unread',
        'templates',
      ]),
    ),
  },
  ['apps'],
);

const historyRowSchema = object(
  {
    app: appId,
    appName: text(),
    id: notificationId,
    title: text(),
    firstLine: text("the body's first line, plain text"),
    deliveredAt: timestamp(),
    read: flag(),
    state: object({
      waiting: flag(),
      replied: flag(),
      snoozedUntil: timestamp(),
      failed: text(),
      held: oneOfText(HELD_REASONS),
      dismissed: flag(),
      relayed: flag(),
      program: flag("another program's notification, read-only"),
    }),
    priority: oneOfText(MARKED_PRIORITIES),
  },
  ['app', 'appName', 'id', 'title', 'firstLine', 'deliveredAt', 'read', 'state'],
);

export const historyPageSchema = object(
  {
    seq: integer('the number of the last change to History this answer includes'),
    total: integer(),
    unread: integer(),
    items: list(historyRowSchema),
  },
  ['seq', 'total', 'unread', 'items'],
);

const approvalQuestionSchema = object(
  {
    id: text(),
    app: appId,
    appName: text(),
    kind: oneOfText(QUESTION_KINDS),
    text: text(),
    detail: map(text()),
    notificationId,
  },
  ['id', 'app', 'appName', 'kind', 'text'],
);

export const notificationDetailsSchema = object(
  {
    row: historyRowSchema,
    record: historyRecordSchema,
    bodyMarkdown: text(),
    buttons: list(
      object({ actionId: text(), label: text(), kind: text(), what: text(), asksFirst: flag(), refused: text() }, [
        'actionId',
        'label',
        'kind',
        'what',
      ]),
    ),
    takesReply: orNull(object({ placeholder: text(), until: timestamp(), actionId: text() })),
    hasCard: flag(),
    questions: list(approvalQuestionSchema),
    callbackAttempts: list(
      object({ action: text(), outcome: oneOfText(CALLBACK_OUTCOMES), detail: text(), at: timestamp() }, ['action', 'outcome']),
    ),
    receipts: list(object({ kind: oneOfText(RECEIPT_KINDS), reason: text(), scope: oneOfText(SUPPRESS_SCOPES) }, ['kind'])),
  },
  ['row', 'record', 'bodyMarkdown', 'buttons', 'takesReply', 'hasCard', 'questions'],
);

const unreadSeq = integer('the number of the last change to History the count includes');
export const readAnswerSchema = okWith({ unread: integer(), seq: unreadSeq }, ['unread', 'seq']);
const undoToken = text('the token POST /app/api/history/undo takes, for 30 seconds');
export const readAllAnswerSchema = okWith({ unread: integer(), seq: unreadSeq, undo: undoToken }, ['unread', 'seq', 'undo']);
export const deleteAnswerSchema = okWith({ deleted: integer(), undo: undoToken }, ['deleted', 'undo']);
export const dismissAnswerSchema = okWith({ undo: undoToken }, ['undo']);
export const reshowAnswerSchema = okWith({ id: notificationId }, ['id']);
export const snoozeAnswerSchema = okWith({ until: timestamp() }, ['until']);

export const approvalsAnswerSchema = object(
  {
    questions: list(approvalQuestionSchema),
    granted: list(
      object({ kind: oneOfText(GRANT_KINDS), app: appId, appName: text(), host: text(), template: text(), grantedAt: timestamp() }, [
        'kind',
        'app',
        'appName',
      ]),
    ),
    denied: list(
      object({ kind: oneOfText(GRANT_KINDS), app: appId, appName: text(), host: text(), template: text(), deniedAt: timestamp() }, [
        'kind',
        'app',
        'appName',
      ]),
    ),
    connectors: list(
      object(
        {
          id: text(),
          clientName: text(),
          redirectHost: text(),
          flow: oneOfText(['code', 'device']),
          userCode: text(),
          code: text('the 6-digit approval code, shown to the person only'),
          expiresAt: timestamp(),
          problem: text(),
        },
        ['id', 'clientName', 'flow', 'code', 'expiresAt'],
      ),
    ),
  },
  ['questions', 'granted', 'denied', 'connectors'],
);

export const composeTemplatesSchema = object(
  {
    templates: list(
      object({ name: text(), fields: list(object({ key: text(), label: text(), type: text() }, ['key'])) }, ['name', 'fields']),
    ),
  },
  ['templates'],
);

export const firstRunSchema = object(
  { port: integer('the port the daemon listens on now'), tokenFile: text("the API token's file (never the token)") },
  ['port', 'tokenFile'],
);

export const lastNotificationsSchema = object(
  { last: map(object({ id: notificationId, title: text(), deliveredAt: timestamp() }, ['id', 'title', 'deliveredAt'])) },
  ['last'],
);

export const voiceTestSchema = okWith({ seconds: number('how long the sample plays') });

export const desktopProgramSchema = object(
  {
    app: appId,
    name: text('the program’s name'),
    keep: oneOfText(PROGRAM_KEEPS),
    excludedByDefault: text('why it is left out until the person keeps it'),
  },
  ['app', 'name', 'keep'],
);

export const desktopAnswerSchema = object(
  {
    keep: flag('keep every desktop notification in History'),
    monitor: object({ state: oneOfText(['off', 'starting', 'on', 'refused']), reason: text('why the bus refused') }, ['state']),
    where: text('the folder the records are kept in'),
    programs: list(desktopProgramSchema),
  },
  ['keep', 'monitor', 'where', 'programs'],
);

export const designerLibrarySchema = object(
  { builtins: list(object({}), 'the built-in layouts, as written'), templates: list(object({}), 'every saved template') },
  ['builtins', 'templates'],
);

/** `/v1/relay/usage` with the relay's own limits, which the window shows the use against. */
export const relayUsageWithLimitsSchema: JsonSchema = {
  ...relayUsageSchema,
  properties: {
    ...(relayUsageSchema.properties as Record<string, JsonSchema>),
    limits: map(integer(), "the relay's daily limits (a relay may leave any out)"),
  },
};
