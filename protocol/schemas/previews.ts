// Previews: a template drawn as a PNG with sample, last or given data.

import { SCALE_RANGE, STACK_COUNT_RANGE } from '../limits.js';
import { flag, object, oneOfText, text } from './json-schema.js';

export const appearance = oneOfText(['light', 'dark'], 'default light; any case');
export const scale = {
  type: ['number', 'string'],
  minimum: SCALE_RANGE.min,
  maximum: SCALE_RANGE.max,
  description: `${SCALE_RANGE.min} to ${SCALE_RANGE.max}, default ${SCALE_RANGE.default}`,
};
export const stackCount = {
  type: ['integer', 'string'],
  minimum: STACK_COUNT_RANGE.min,
  maximum: STACK_COUNT_RANGE.max,
  description: `above 1: the top card of a stack of that many (at most ${STACK_COUNT_RANGE.max})`,
};

/** The data by name: what a query string can carry (POST's body may also send an object). */
export const previewQueryData = oneOfText(['sample', 'last']);

export const previewSchema = object({
  app: text("the app whose manifest, icon and default template apply; default: the inline template's"),
  template: {
    type: ['string', 'object'],
    description: "a template's name, or a whole template; default: the app's default, else builtin.imageLeft",
  },
  data: {
    anyOf: [previewQueryData, object({}, [], 'a notification body without app')],
    description: "sample (the manifest's sample values, the default), last (the app's latest notification) or an object",
  },
  appearance,
  scale,
  stackCount,
  stackExpanded: flag('the stack open as a list'),
  confirmation: { type: ['string', 'object'], description: 'an inline question: its kind, or an object with kind and its texts' },
  replying: flag('the reply field in place of the buttons'),
  replySample: text('the text in the reply field'),
});

export const pngReply = 'the card as a PNG picture, on a transparent background';
