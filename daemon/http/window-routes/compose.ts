// `/app/api/compose…` and `/app/api/preview` (docs/app.md#compose): the person writes a notification. It is
// sent as `POST /v1/notify` sends one (the same checks, the same errors naming their fields), and previewed by the
// renderer behind `POST /v1/preview`.

import {
  APP_API,
  type ComposeAnswer,
  type ComposeRequest,
  type ComposeTemplatesAnswer,
  OWN_APP,
  type PreviewRequest,
} from '../../../protocol/app-api.js'; // what the person writes without naming an app is Notifier's own
import { ApiError, errors } from '../../../protocol/errors.js';
import { composeTemplatesSchema } from '../../../protocol/schemas/app-api.js';
import { notifyReplySchema } from '../../../protocol/schemas/notifications.js';
import { templateFields } from '../../core/templates/template-fields.js';
import { query, type Route } from '../route.js';
import { readNotification } from '../routes/notifications.js';
import { readPost, sendPreview } from '../routes/previews.js';
import type { Services as AllServices } from '../services.js';
import { windowRoute } from './window-route.js';

type Services = Pick<AllServices, 'designs' | 'history' | 'names' | 'notifications'>;

/** The preview's errors name the fields as Compose shows them (`title`, not the preview route's `data.title`). */
function asComposeError(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.field?.startsWith('data.')) return error;
  const field = error.field.slice('data.'.length);
  if (error.code === 'missing_field') return errors.missingField(field, error.reason);
  if (error.code === 'invalid_field') return errors.invalidField(field, error.reason);
  return error;
}

/** The preview's body: the notification being written, its app and the theme to draw it in. */
function previewRequest(body: Record<string, unknown>) {
  const given = body.notification ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw errors.invalidField('notification', 'an object');
  const { template, ...data } = given as Record<string, unknown>;
  const theme = body.theme ?? 'light';
  if (theme !== 'light' && theme !== 'dark') throw errors.invalidChoice('theme', ['light', 'dark']);
  const app = body.app ?? data.app ?? OWN_APP;
  return readPost({ app, ...(template !== undefined ? { template } : {}), data, appearance: theme });
}

export function composeRoutes(): Route<Services>[] {
  return [
    windowRoute<Services, ComposeTemplatesAnswer>({
      method: 'GET',
      path: APP_API.composeTemplates,
      summary: "An app's templates with their fields, for Compose's form",
      query: [query.text('app', 'the app (default: Notifier itself)')],
      reply: composeTemplatesSchema,
      handle: ({ services, query }) => {
        const app = (query.app as string | undefined) ?? OWN_APP;
        const manifest = services.designs.manifest(app);
        return {
          templates: services.designs
            .listTemplates(app)
            .map((template) => ({ name: template.name, fields: templateFields(template, manifest) })),
        };
      },
    }),
    windowRoute<Services, ComposeAnswer, ComposeRequest>({
      method: 'POST',
      path: APP_API.compose,
      summary: 'Send what the person wrote, as POST /v1/notify sends it',
      reply: notifyReplySchema,
      handle: async ({ services, body }) => {
        const notification = readNotification({ ...body, app: body.app ?? OWN_APP });
        return { ok: true, id: await services.notifications.notify(notification) };
      },
    }),
    windowRoute<Services, void, PreviewRequest>({
      method: 'POST',
      path: APP_API.preview,
      summary: 'The notification being written, drawn as its card',
      reply: { file: 'the card', contentType: 'image/png' },
      handle: async ({ services, body, res }) => {
        try {
          await sendPreview(services, previewRequest(body), res);
        } catch (error) {
          throw asComposeError(error);
        }
      },
    }),
  ];
}
