import type { NotifierCore } from '../core/notifier.js';
import { type JsonSchema, text } from '../../protocol/schemas/json-schema.js';
import type { Method, Route } from './routes.js';

// A route of the API with its contract: what the OpenAPI document (docs/api/openapi.json, GET /v1/openapi.json)
// says of it, next to its handler. The contract is plain data, so the document is made without a core; the
// handler is made from the core when the app is assembled.

/** The areas of the API, in the order the document lists them. */
export const TAGS = {
  Health: 'The service itself: is it up, and this document.',
  Notifications: 'Sending notifications, closing their banners, speaking.',
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
} as const;

export type Tag = keyof typeof TAGS;

/** A query parameter the route reads. Its schema types the value once read (`limit` is an integer). */
export interface QueryParameter {
  name: string;
  schema: JsonSchema;
  description: string;
  required?: true;
}

/** The `app` query parameter of a route that acts on one app. */
export const APP_QUERY: QueryParameter = { name: 'app', schema: text(), required: true, description: 'the app' };

/** The `app` query parameter of a route that answers for every app unless it names one. */
export const onlyApp = (description: string): QueryParameter => ({ name: 'app', schema: text(), description });

/** A request the route answers with its success reply; the API test sends each one to a daemon. */
export interface Example {
  summary: string;
  /** The `{id}` of a route whose path ends in it, before percent-encoding. */
  id?: string;
  query?: Readonly<Record<string, string | number | boolean>>;
  body?: unknown;
  /** Why the API test does not send it (it would change the computer, or cannot succeed in a test daemon). */
  notSent?: string;
}

/** A reply that is a picture rather than JSON. */
export interface PngReply {
  png: string;
}

export interface Contract {
  summary: string;
  description?: string;
  tag: Tag;
  /** Answered without the token (only the health check: the guard lets it through). */
  open?: true;
  /** What the `{id}` at the end of the path names. */
  idParameter?: string;
  query?: readonly QueryParameter[];
  /** The JSON body's schema, for routes that read one. */
  body?: JsonSchema;
  /** The success reply is 201 (something was made), not 200. */
  created?: true;
  /** The success reply: its JSON schema, or a picture. */
  reply: JsonSchema | PngReply;
  /** The statuses of the route's own refusals, each with when it happens (the guard's are added for every route). */
  errors: Readonly<Partial<Record<number, string>>>;
  examples: readonly Example[];
}

export interface ApiRoute extends Contract {
  method: Method;
  path: string;
  /** Makes the route's handler for a core (once, when the app is assembled). */
  handler: (core: NotifierCore) => Route['handle'];
}

export const isPngReply = (reply: Contract['reply']): reply is PngReply => typeof (reply as PngReply).png === 'string';
