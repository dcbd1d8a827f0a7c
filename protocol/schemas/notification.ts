// Schema of the notification object (docs/api/notifications.md#the-notification-object), the body of POST /v1/notify. It checks
// types and ranges; the rules that span fields (exactly one button kind, the follow-up's rules, the template's
// title) live in protocol/notification-rules.ts.

import { CALLBACK_METHODS, LAYOUTS, PRESENTATIONS, PRIORITIES } from '../types.js';
import { MAX_BODY_LINES_RANGE } from '../limits.js';

const string = { type: 'string' } as const;
const boolean = { type: 'boolean' } as const;

const callbackTarget = {
  type: 'object',
  description: 'an object with url and payload, or a request written out: url, method, headers and body; all optional',
  properties: {
    url: string,
    payload: {},
    method: { type: 'string', enum: [...CALLBACK_METHODS] },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'header names and their values, all strings' },
    body: string,
  },
} as const;

const button = {
  type: 'object',
  required: ['label'],
  properties: {
    label: { type: 'string', minLength: 1, description: 'a non-empty string' },
    id: string,
    kind: string,
    style: { enum: ['default', 'destructive', 'cancel', 'normal', 'prominent'] },
    url: string,
    command: string,
    script: string,
    shortcut: string,
    input: string,
    callback: callbackTarget,
    openApp: {
      type: 'object',
      description: 'an object with bundleId or path; empty means the sender',
      properties: { bundleId: string, path: string },
    },
    reply: {
      type: 'object',
      description: 'an object with placeholder, callback and voice, all optional',
      properties: { placeholder: string, callback: callbackTarget, voice: boolean },
    },
  },
} as const;

export const followUpSchema = {
  type: 'object',
  properties: {
    after: { type: ['number', 'string'], description: 'seconds, or a duration such as 90s, 10m, 2h' },
    actionRef: string,
    action: {
      type: 'object',
      required: ['label', 'kind'],
      properties: {
        id: string,
        label: { type: 'string', minLength: 1, description: 'a non-empty string' },
        kind: string,
        command: string,
        script: string,
        shortcut: string,
        input: string,
        callback: callbackTarget,
      },
    },
    enabled: boolean,
  },
} as const;

/** The notification object's top-level keys (and `actions`, another name of `buttons`). Others are template fields (docs/api/notifications.md#n1). */
export const NOTIFICATION_KEYS = new Set([
  'app',
  'id',
  'title',
  'subtitle',
  'body',
  'image',
  'url',
  'template',
  'metadata',
  'group',
  'persistent',
  'timeout',
  'sound',
  'priority',
  'snooze',
  'reminder',
  'buttons',
  'actions',
  'actionIds',
  'followUp',
  'speak',
  'audio',
  'presentation',
  'layout',
  'accentColor',
  'showSubtitle',
  'showBody',
  'showTimestamp',
  'maxBodyLines',
]);

export const notificationSchema = {
  type: 'object',
  required: ['app'],
  properties: {
    app: string,
    id: string,
    title: string,
    subtitle: string,
    body: string,
    image: string,
    url: string,
    template: string,
    metadata: { type: ['object', 'null'] },
    group: string,
    persistent: boolean,
    timeout: { type: 'number', minimum: 0, description: 'seconds, a number of 0 or more' },
    sound: string,
    priority: { type: 'string', enum: [...PRIORITIES] },
    snooze: boolean,
    reminder: {
      type: 'object',
      description: 'an object with title and due, both optional',
      properties: { title: string, due: string },
    },
    buttons: { type: 'array', items: button },
    actions: { type: 'array', items: button },
    actionIds: { type: 'array', items: string },
    followUp: followUpSchema,
    speak: { type: ['boolean', 'string', 'object'], description: 'true, a text, or an object with text, voice, speed and lang' },
    audio: string,
    presentation: { type: 'string', enum: [...PRESENTATIONS] },
    layout: { type: 'string', enum: [...LAYOUTS] },
    accentColor: {
      type: 'string',
      pattern: '^#([0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$',
      description: 'a hex colour such as #RRGGBB',
    },
    showSubtitle: boolean,
    showBody: boolean,
    showTimestamp: boolean,
    maxBodyLines: {
      type: 'integer',
      minimum: MAX_BODY_LINES_RANGE.min,
      maximum: MAX_BODY_LINES_RANGE.max,
      description: `a whole number from ${MAX_BODY_LINES_RANGE.min} to ${MAX_BODY_LINES_RANGE.max}`,
    },
  },
} as const;
