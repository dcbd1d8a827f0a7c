// Drawing a banner to a picture without showing it (daemon/http/routes/previews.ts).

import type { Answer } from '../call.js';
import { APP, type Tool, type ToolResult, annotate, asQuery, call, flag, inputs, number, text, whole } from './common.js';

/** Width and height from a PNG's header (IHDR comes first in every PNG). */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47) return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function pictureResult(answer: Answer, what: Record<string, unknown>): ToolResult {
  const size = pngSize(answer.bytes);
  return {
    content: [
      { type: 'image', data: answer.bytes.toString('base64'), mimeType: 'image/png' },
      { type: 'text', text: JSON.stringify({ ok: true, ...what, mimeType: 'image/png', bytes: answer.bytes.length, ...size }) },
    ],
  };
}

/** How long a picture may take to draw. */
const PREVIEW_TIMEOUT_MS = 60_000;

const PREVIEW_OPTIONS = {
  appearance: { type: 'string', enum: ['light', 'dark'], description: 'Default light.' },
  scale: number('1 to 3. Default 2.'),
  stackCount: whole('1 to 99; above 1 draws the top card of a stack. Default 1.'),
  stackExpanded: flag('With stackCount above 1: draw the stack open.'),
};

export const renderPreview: Tool = {
  name: 'render_preview',
  title: 'Render a preview',
  description:
    'Draw a banner to a PNG without showing it (POST /v1/preview): a saved template by name or a whole template object, with ' +
    "the manifest's samples, the app's last notification, or data written inline. The result carries the picture.",
  routes: ['POST /v1/preview'],
  inputSchema: inputs({
    app: text('The app id (optional when template is an object naming its app).'),
    template: {
      type: ['string', 'object'],
      description: "A template name or a whole template. Default: the app's default, else builtin.imageLeft.",
    },
    data: { type: ['string', 'object'], description: '"sample" (default), "last", or an object read like a notification.' },
    ...PREVIEW_OPTIONS,
    confirmation: { type: ['string', 'object'], description: 'Draw an inline question: a kind such as command, or {kind, name, ...}.' },
    replying: flag('Draw the reply field instead of the buttons.'),
    replySample: text('Text in the reply field when replying.'),
  }),
  annotations: annotate('Render a preview', 'read'),
  run: async (args, context) => {
    const answer = await call(context, { method: 'POST', path: '/v1/preview', body: args, timeoutMs: PREVIEW_TIMEOUT_MS });
    return pictureResult(answer, { app: args.app ?? (args.template as { app?: unknown } | undefined)?.app ?? null });
  },
};

export const designerSnapshot: Tool = {
  name: 'designer_snapshot',
  title: 'Snapshot a saved template',
  description:
    "Draw a saved (or built-in) template with the manifest's sample values to a PNG (GET /v1/preview), as the designer shows " +
    'it. The result carries the picture.',
  routes: ['GET /v1/preview'],
  inputSchema: inputs({ app: APP, template: text("Saved or builtin.* template. Default: the app's default."), ...PREVIEW_OPTIONS }, [
    'app',
  ]),
  annotations: annotate('Snapshot a saved template', 'read'),
  run: async (args, context) => {
    const answer = await call(context, { method: 'GET', path: '/v1/preview', query: asQuery(args), timeoutMs: PREVIEW_TIMEOUT_MS });
    return pictureResult(answer, { app: args.app, template: args.template ?? null });
  },
};
