// The four MCP tools of the relay (docs/relay-api.md#ra61), the same in every protocol era: each is one agent
// request (counted, limited and answered exactly like its HTTP route), and its result carries that route's
// JSON body. Nothing here approves anything or reveals a secret.

import { invalidField, invalidRequest, RelayError } from '../../protocol/relay/errors.js';
import { NOTIFY_FIELDS, PRESENTATIONS, PRIORITIES } from '../../protocol/relay/notify.js';
import { readReceipt, readStatus, sendNotification } from '../core/agent.js';
import type { AgentCaller } from '../core/auth.js';
import type { Relay } from '../core/relay.js';
import { waitForReply } from '../core/replies.js';

/** RA61: `wait_for_reply` waits at most 55 seconds (a client's request timeout is often 60), 30 by default. */
export const MCP_WAIT = { max: 55, default: 30 } as const;

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[]; additionalProperties: false };
}

const text = (description: string, maxLength?: number): object => ({ type: 'string', description, ...(maxLength && { maxLength }) });
const flag = (description: string): object => ({ type: 'boolean', description });

/**
 * The schema of every `/v1/notify` field (RA42, RA43) but `withdraw`: the tool sends notifications, and taking one
 * back (RA44c) is `POST /v1/notify` or ntfy's clear and delete.
 */
const NOTIFY_PROPERTIES: Record<Exclude<(typeof NOTIFY_FIELDS)[number], 'withdraw'>, object> = {
  title: text('The headline (required).', 200),
  subtitle: text('A second line.', 200),
  body: text('The message.', 8000),
  project: text('The project the agent works on.', 100),
  session: text('The agent session.', 100),
  task: text('The task.', 100),
  tool: text('The tool that finished or needs attention.', 100),
  group: text('Notifications with the same group are shown together.', 100),
  status: text('A short status word such as done, failed, waiting.', 32),
  duration: { type: ['string', 'number'], description: 'How long the task took (seconds, or a text such as "3m 12s").' },
  link: text('An https address the person can open.', 2048),
  priority: { type: 'string', enum: PRIORITIES, description: 'How urgent it is.' },
  notificationId: text(
    'Your id for it (letters, digits, ._:-; up to 128): read its receipt and reply with it; a repeat within 24 hours is not sent again.',
    128,
  ),
  collapseId: text(
    'Notifications you send with the same collapseId are one on the computer: each takes the place of the one before (letters, digits, ._:-; up to 128).',
    128,
  ),
  showAt: {
    type: 'string',
    format: 'date-time',
    description: 'Show it at this time (ISO 8601 with its zone, at most 3 days ahead); the computer keeps it until then.',
  },
  expectReply: flag('Ask the person for an answer; read it with wait_for_reply.'),
  allowVoiceReply: flag('Allow a recorded answer (default true).'),
  persistent: flag('Keep the banner until the person dismisses it.'),
  timeoutSeconds: { type: 'number', minimum: 1, maximum: 3600, description: 'Hide the banner after this many seconds.' },
  sound: text('A sound name (never a path).', 40),
  presentation: { type: 'string', enum: PRESENTATIONS, description: 'Show a banner, speak it, or both.' },
  icon: text('An https image address, or a data:image/png|jpeg|gif|webp;base64 URL of at most 256 KiB.'),
  imageURL: text('An https picture to show in the banner.', 2048),
  tags: { type: 'array', items: { type: 'string', maxLength: 32 }, maxItems: 10, description: 'Short labels (no commas).' },
  speak: {
    description: 'Speak it: true, the text to speak, or {text, voice, speed, lang}; false to stay silent.',
    anyOf: [
      { type: 'boolean' },
      { type: 'string', maxLength: 2000 },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          text: { type: 'string', maxLength: 2000 },
          voice: { type: 'string' },
          speed: { type: 'number', minimum: 0.5, maximum: 2 },
          lang: { type: 'string' },
        },
      },
    ],
  },
  voice: text('The voice to speak with (letters, digits, _).', 40),
  speed: { type: 'number', minimum: 0.5, maximum: 2, description: 'Speech speed.' },
};

export const TOOLS: ToolDefinition[] = [
  {
    name: 'send_notification',
    title: 'Send a notification',
    description:
      "Shows a notification on the person's computer (and can speak it). With expectReply, the person can answer; read the answer with wait_for_reply. Returns the receipt.",
    inputSchema: { type: 'object', properties: NOTIFY_PROPERTIES, required: ['title'], additionalProperties: false },
  },
  {
    name: 'get_receipt',
    title: 'Read a receipt',
    description: 'Whether a notification you sent was shown, spoken, answered or held back, and the answer if there is one.',
    inputSchema: {
      type: 'object',
      properties: { notificationId: text('The notificationId you sent (or the one the send returned).') },
      required: ['notificationId'],
      additionalProperties: false,
    },
  },
  {
    name: 'wait_for_reply',
    title: 'Wait for the reply',
    description: `Waits until the person answers a notification (or it will not be shown), at most timeoutSeconds (0 to ${MCP_WAIT.max}, default ${MCP_WAIT.default}).`,
    inputSchema: {
      type: 'object',
      properties: {
        notificationId: text('The notificationId you sent.'),
        timeoutSeconds: { type: 'integer', minimum: 0, maximum: MCP_WAIT.max, default: MCP_WAIT.default, description: 'How long to wait.' },
      },
      required: ['notificationId'],
      additionalProperties: false,
    },
  },
  {
    name: 'herald_status',
    title: "The computer's status",
    description: "Whether the person's computer is connected to the relay now, and whether quiet hours are on.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
];

/** What a tool's underlying route answered: its status and JSON body. */
export interface ToolOutcome {
  status: number;
  body: unknown;
}

export class UnknownTool extends Error {
  constructor(readonly tool: string) {
    super(`unknown tool: ${tool}`);
  }
}

/** Who calls, and the origin links in answers point to. */
export interface ToolContext {
  relay: Relay;
  agent: AgentCaller;
  origin: string;
}

function requiredId(args: Record<string, unknown>): string {
  if (typeof args.notificationId !== 'string' || args.notificationId === '')
    throw invalidRequest('notificationId is required', ['notificationId']);
  return args.notificationId;
}

function mcpWaitSeconds(value: unknown): number {
  if (value === undefined) return MCP_WAIT.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MCP_WAIT.max)
    throw invalidField('timeoutSeconds', `a whole number from 0 to ${MCP_WAIT.max}`);
  return value;
}

/** Runs one tool. A refusal of its route is an outcome (the tool result says isError), not an exception. */
export async function callTool(context: ToolContext, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const { relay, agent, origin } = context;
  try {
    switch (name) {
      case 'send_notification':
        // The same size rules as POST /v1/notify: the arguments are the body.
        return await sendNotification(relay, agent, Buffer.from(JSON.stringify(args)), origin);
      case 'get_receipt':
        return { status: 200, body: await readReceipt(relay, agent, requiredId(args), origin) };
      case 'wait_for_reply':
        return { status: 200, body: await waitForReply(relay, agent, requiredId(args), mcpWaitSeconds(args.timeoutSeconds), origin) };
      case 'herald_status':
        return { status: 200, body: await readStatus(relay, agent) };
      default:
        throw new UnknownTool(name);
    }
  } catch (error) {
    if (error instanceof RelayError && error.status !== 401 && error.status !== 403) return { status: error.status, body: error.body() };
    throw error;
  }
}
