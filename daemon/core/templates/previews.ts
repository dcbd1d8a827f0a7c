// Previews (POST/GET /v1/preview; docs/api/templates.md#t24) and the card pictures of live banners: a template drawn
// with data — the manifest's samples, the app's last notification, or a notification written inline — by the same
// renderer (templates-renderer/render.ts) whichever asks.

import { stat } from 'node:fs/promises';
import { type Image, loadImage } from 'canvas';
import { builtinForNotification } from '../../../templates-renderer/builtins.js';
import type { Template } from '../../../templates-renderer/model.js';
import type { DrawnAction } from '../../../templates-renderer/scene.js';
import { type Rendered, type RenderInput, renderBanner } from '../../../templates-renderer/render.js';
import { errors } from '../../../protocol/errors.js';
import { MAX_BUTTONS, MAX_IMAGE_BYTES } from '../../../protocol/limits.js';
import { coerceFields, formatSample, resolveFields } from '../../../protocol/fields.js';
import { sniffImage } from '../media/image-sniff.js';
import { readSource } from '../media/images.js';
import { buttonKind } from '../../../protocol/notification-rules.js';
import { applyTemplateDefaults } from './template-defaults.js';
import type { Button, Manifest, Notification } from '../../../protocol/types.js';
import { localPath } from '../../paths.js';

/** How a preview is drawn: the renderer's own options, as the preview routes read them. */
export type PreviewOptions = Pick<
  RenderInput,
  'appearance' | 'scale' | 'stackCount' | 'stackExpanded' | 'confirmation' | 'replying' | 'replySample'
>;

/** What a card is drawn from: the notification's fields and buttons, and the app's name and icon. */
export interface CardData {
  notification: Notification;
  deliveredAt: string;
  appName: string;
  appIcon?: string;
  manifest?: Manifest;
}

/**
 * Data `sample` with no samples to show (docs/api/templates.md#post-v1-preview): what a designer sees instead of an empty card. Used only when the
 * app declares no fields at all (a declared field without a sample is left out, to show its collapse).
 */
const GENERIC_SAMPLE = {
  title: 'Deploy finished',
  subtitle: 'api · production',
  body: 'Version 2.4.1 is live on 12 servers. [Open the dashboard](https://example.com).',
};

/**
 * The manifest's sample values as a notification (docs/api/templates.md#post-v1-preview: data `sample`, the default), with the
 * manifest's actions as its buttons so a designer sees where they go.
 */
export function sampleNotification(app: string, manifest: Manifest | undefined): Notification {
  const fields = manifest?.fields ?? [];
  const buttons = (manifest?.actions ?? []).slice(0, MAX_BUTTONS);
  const notification: Notification = { app, id: 'preview', ...(buttons.length > 0 ? { buttons } : {}) };
  if (fields.length === 0) return { ...notification, ...GENERIC_SAMPLE };
  const metadata: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.sample === undefined) continue;
    const value = formatSample(field.sample);
    if (['title', 'subtitle', 'body', 'image', 'url'].includes(field.key))
      (notification as unknown as Record<string, unknown>)[field.key] = value;
    else metadata[field.key] = field.sample;
  }
  if (Object.keys(metadata).length > 0) notification.metadata = metadata;
  return notification;
}

/** The actions a card shows: the notification's buttons, else the template's legacy defaults. */
export function drawnActions(notification: Notification, template: Template): DrawnAction[] {
  const buttons: Button[] = notification.buttons ?? template.buttons ?? [];
  return buttons.map((button) => ({
    id: button.id ?? button.label,
    label: button.label,
    kind: buttonKind(button),
    ...(button.style ? { style: button.style } : {}),
  }));
}

/** Draws a card; a failure of the drawing itself is the service's (500), never the caller's. */
export async function drawCard(
  template: Template,
  data: CardData,
  options: PreviewOptions & { width?: number; now?: Date; timeZone?: string },
): Promise<Rendered> {
  const notification = { ...data.notification };
  applyTemplateDefaults(notification, template, {
    appName: data.appName,
    deliveredAt: data.deliveredAt,
    ...(data.manifest ? { manifest: data.manifest } : {}),
  });
  const fields = coerceFields(
    resolveFields(notification, data.appName, data.deliveredAt, { extra: template.extra, stackCount: options.stackCount }),
    data.manifest,
  );
  try {
    return await renderBanner(
      {
        template: builtinForNotification(template, notification),
        fields,
        actions: drawnActions(notification, template),
        ...(data.appIcon ? { appIcon: data.appIcon } : {}),
        appearance: options.appearance,
        scale: options.scale,
        stackCount: options.stackCount,
        stackExpanded: options.stackExpanded,
        ...(options.confirmation ? { confirmation: options.confirmation } : {}),
        replying: options.replying,
        ...(options.replySample !== undefined ? { replySample: options.replySample } : {}),
        now: options.now ?? new Date(),
        ...(options.timeZone ? { timeZone: options.timeZone } : {}),
        ...(options.width ? { width: options.width } : {}),
      },
      loadPicture,
    );
  } catch (error) {
    throw errors.previewFailed((error as Error).message);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Pictures

interface CachedPicture {
  image: Promise<Image | null>;
  /** A local file's modification time when it was read (a changed file is read again). */
  modified?: number;
}

/** Decoded pictures by source; a render of a card with a picture then costs no decoding. */
const PICTURES = new Map<string, CachedPicture>();
const PICTURE_CACHE_SIZE = 64;

/** Reads and decodes a picture (a path, `~/`, `file://`, data: URI or https URL); null when it cannot be drawn. */
export async function loadPicture(source: string): Promise<Image | null> {
  const modified = await modifiedTime(source);
  const cached = PICTURES.get(source);
  if (cached && cached.modified === modified) {
    // Most recently used last: the oldest entry is the first one dropped.
    PICTURES.delete(source);
    PICTURES.set(source, cached);
    return cached.image;
  }
  const image = readSource(source, MAX_IMAGE_BYTES)
    .then((bytes) => (sniffImage(bytes) ? loadImage(bytes) : null))
    .catch(() => null);
  if (PICTURES.size >= PICTURE_CACHE_SIZE) PICTURES.delete(PICTURES.keys().next().value!);
  PICTURES.set(source, { image, ...(modified !== undefined ? { modified } : {}) });
  return image;
}

/** When a local picture file last changed (-1 when it cannot be read); undefined for a data: URI or a URL. */
async function modifiedTime(source: string): Promise<number | undefined> {
  if (/^(data:|https:)/i.test(source)) return undefined;
  try {
    const file = localPath(source);
    return file === null ? undefined : (await stat(file)).mtimeMs;
  } catch {
    return -1;
  }
}
