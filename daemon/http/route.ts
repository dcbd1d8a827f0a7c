// One kind of route for every HTTP surface of the daemon (docs/architecture.md, "One route model"): `/v1`, the
// person's window's `/app/api`, and the ones coming next. A route is a contract — its method, its path with named
// parameters, the schemas of its query, body and answer (from protocol/), who may call it, its refusals and
// examples — and a handler that reads as named steps calling a service. The contract is plain data: the OpenAPI
// document is made from it without a core, the router parses every parameter by it, and the tests check each
// answer against it.

import type { Request, Response } from 'express';
import { type JsonSchema, text } from '../../protocol/schemas/json-schema.js';
import type { Dialect } from './dialect-errors.js';
import type { Caller } from './guard.js';
import type { Session } from './window/sessions.js';

export type { Caller, Dialect };

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone (`open`: the health check only), a program holding the API token (`token`: `/v1`),
 * a program holding the API token or a sending key (`sender`: `POST /v1/notify` and the publishing dialects), or the
 * person in Notifier's window (`session`: `/app/api`). A key never opens another door (docs/app.md#the-three-doors).
 */
export type Door = 'open' | 'token' | 'sender' | 'session';

/** The areas of the API, in the order the document lists them. */
export const TAGS = {
  Health: 'The service itself: is it up, and this document.',
  Notifications: 'Sending notifications, closing their banners, speaking.',
  Keys: 'Sending keys: each sends notifications as one app, and opens nothing else.',
  Banners: 'What is on screen: snoozing and stacks.',
  Replies: "The person's replies to notifications.",
  Apps: 'Registered apps, their settings, removing one.',
  History: 'Every notification delivered, searchable, with what became of it.',
  Approvals: 'What the person allowed apps to run; the API lists and revokes, only the person grants.',
  Manifests: "An app's description of itself: fields, actions, Rive files, default template.",
  Templates: "Banner designs: a grid of cells bound to the notification's fields.",
  Previews: 'A template drawn as a PNG picture.',
  Lookups: 'The component reference, symbols and shortcuts a template can use.',
  Assets: "An app's Rive files and images.",
  Settings: 'The global settings and quiet hours.',
  Voice: 'The speech engine.',
  MCP: 'Installing the agent server into agent clients.',
  Relay: 'The cloud relay as this computer uses it: pairing, agent keys, connectors. Only the person approves a connector.',
  Window: "The person's window (`/app/api`): only the person's session opens it, never the API token.",
} as const;

export type Tag = keyof typeof TAGS;

/** How a query parameter's text is read into its value (docs/api/README.md#g16); each names the parameter when it refuses. */
export type QueryReading =
  /** Text as given; empty is absent. */
  | { kind: 'text' }
  /** One of a fixed list; empty or absent is the default. */
  | { kind: 'choice'; choices: readonly string[]; default?: string }
  /** A whole number from `min` to `max`; absent or empty is the default; above `max` it is cut to `max` when `cut`. */
  | { kind: 'whole'; min: number; max: number; default?: number; cut?: true; rule?: string }
  /** `true|1|yes` or `false|0|no`, any case; absent or empty is the default. */
  | { kind: 'flag'; default: boolean }
  /** A date (that day's start for `from`, its end for `to`, local time) or a date-time, as an ISO UTC time. */
  | { kind: 'date'; edge: 'start' | 'end' }
  /** A value of its own kind, read by the family's named reader (absent: undefined); it throws naming the parameter. */
  | { kind: 'read'; read: (text: string | undefined) => unknown };

/** A query parameter the route reads: its schema (for the document) and how its text is read. */
export interface QueryParameter {
  name: string;
  description: string;
  schema: JsonSchema;
  /** How its text is read; text as given when not said. */
  read?: QueryReading;
  /** Absent or empty is `missing field: <name>`. */
  required?: true;
}

/** A path parameter (`{id}` in the path): percent-decoded by the router; `rest` takes the rest of the path, slashes too. */
export interface PathParameter {
  description: string;
  rest?: true;
}

/** A request the route answers with its success reply; the API's tests send each one to a daemon. */
export interface Example {
  summary: string;
  /** Values of the path parameters, before percent-encoding. */
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string | number | boolean>>;
  body?: unknown;
  /** Why the tests do not send it (it would change the computer, or cannot succeed in a test daemon). */
  notSent?: string;
}

/** An answer that is not JSON: a picture, or a file to save. */
export interface FileReply {
  file: string;
  contentType: 'image/png' | 'text/csv' | 'application/json' | 'text/event-stream';
}

export interface Contract {
  method: Method;
  /** The path, its parameters in braces: `/v1/apps/{id}`, `/app/api/history/{app}/{id}/read`. */
  path: string;
  door: Door;
  summary: string;
  description?: string;
  tag: Tag;
  params?: Readonly<Record<string, PathParameter>>;
  query?: readonly QueryParameter[];
  /** The JSON body's schema, for routes that read one. */
  body?: JsonSchema;
  /** The body is read as bytes (`call.raw`), not as JSON: a dialect's body is text, a form or JSON of its own. */
  rawBody?: true;
  /** The route speaks another server's dialect: its refusals are in that server's shape. */
  dialect?: Dialect;
  /** The success reply is 201 (something was made), not 200. */
  created?: true;
  /** The success reply: its JSON schema, or a file. */
  reply: JsonSchema | FileReply;
  /** The statuses of the route's own refusals, each with when it happens (the door's are added for every route). */
  errors: Readonly<Partial<Record<number, string>>>;
  examples: readonly Example[];
}

/** What a handler is given: the services its family uses, and the request as the contract read it. */
export interface Call<S> {
  services: S;
  /** The path's parameters, percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** The query's parameters, read by the contract (absent ones are undefined, or their default). */
  query: Readonly<Record<string, unknown>>;
  /** The JSON body as an object (`{}` when there is none); read on first use, so only a route that reads it refuses one that is no object. */
  readonly body: Record<string, unknown>;
  /** The person's session, behind the `session` door. */
  session: Session | undefined;
  /** Who called, behind the `token` and `sender` doors. */
  caller: Caller | undefined;
  /** The body's bytes, for a `rawBody` route (empty when there is none). */
  raw: Buffer;
  req: Request;
  /** For a handler that writes its own answer (a file, a stream); otherwise its return value is the JSON answer. */
  res: Response;
}

export interface Route<S> extends Contract {
  handle(call: Call<S>): unknown;
}

/** The answer of a route that only acts (its reply is `okSchema`): `work.then(ok)` answers `{ok: true}` once the work is done. */
export const ok = (): { ok: true } => ({ ok: true });

export const isFileReply = (reply: Contract['reply']): reply is FileReply => typeof (reply as FileReply).file === 'string';

// ---------------------------------------------------------------------------------------------------------------
// Query parameters, as route families declare them

export const query = {
  text: (name: string, description: string, options: { required?: true; schema?: JsonSchema } = {}): QueryParameter => ({
    name,
    description,
    schema: options.schema ?? text(),
    read: { kind: 'text' },
    ...(options.required ? { required: true as const } : {}),
  }),
  choice: (
    name: string,
    choices: readonly string[],
    description: string,
    options: { required?: true; default?: string } = {},
  ): QueryParameter => ({
    name,
    description,
    schema: { type: 'string', enum: [...choices] },
    read: { kind: 'choice', choices, ...(options.default !== undefined ? { default: options.default } : {}) },
    ...(options.required ? { required: true as const } : {}),
  }),
  whole: (
    name: string,
    description: string,
    range: { min: number; max?: number; default?: number; cut?: true; rule?: string },
  ): QueryParameter => ({
    name,
    description,
    schema: { type: 'integer', minimum: range.min, ...(range.max !== undefined && !range.cut ? { maximum: range.max } : {}) },
    read: {
      kind: 'whole',
      min: range.min,
      max: range.max ?? Number.MAX_SAFE_INTEGER,
      ...(range.default !== undefined ? { default: range.default } : {}),
      ...(range.cut ? { cut: true as const } : {}),
      ...(range.rule ? { rule: range.rule } : {}),
    },
  }),
  flag: (name: string, description: string, defaultValue: boolean, schema: JsonSchema = { type: 'boolean' }): QueryParameter => ({
    name,
    description,
    schema,
    read: { kind: 'flag', default: defaultValue },
  }),
  date: (name: 'from' | 'to', description: string): QueryParameter => ({
    name,
    description,
    schema: text(),
    read: { kind: 'date', edge: name === 'from' ? 'start' : 'end' },
  }),
  /** A parameter of its own kind: `schema` documents it, `read` reads its text (undefined when absent). */
  read: (
    name: string,
    description: string,
    schema: JsonSchema,
    read: (text: string | undefined) => unknown,
    options: { required?: true } = {},
  ): QueryParameter => ({
    name,
    description,
    schema,
    read: { kind: 'read', read },
    ...(options.required ? { required: true as const } : {}),
  }),
};

/** The `app` query parameter of a route that acts on one app. */
export const APP_QUERY: QueryParameter = query.text('app', 'the app', { required: true });

/** The `app` query parameter of a route that answers for every app unless it names one. */
export const onlyApp = (description: string): QueryParameter => query.text('app', description);
