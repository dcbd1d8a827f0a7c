// `/app/api/compose…` and `/app/api/preview` (docs/app.md#compose): the person writes a notification. It is
// sent as `POST /v1/notify` sends one (the same checks, the same errors naming their fields), and previewed by the
// renderer behind `POST /v1/preview`.

import { OWN_APP } from '../../../protocol/app-api.js'; // what the person writes without naming an app is Notifier's own
import { ApiError, errors } from '../../../protocol/errors.js';
import { bodyObject, queryText } from '../params.js';
import { readNotification } from '../routes/notifications.js';
import { readPost, sendPreview } from '../routes/previews.js';
import { templateFields } from '../../core/templates/template-fields.js';
import type { AppRoute } from './api-route.js';

/** The preview's errors name the fields as Compose shows them (`title`, not the preview route's `data.title`). */
function asComposeError(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.field?.startsWith('data.')) return error;
  const field = error.field.slice('data.'.length);
  if (error.code === 'missing_field') return errors.missingField(field, error.reason);
  if (error.code === 'invalid_field') return errors.invalidField(field, error.reason);
  return error;
}

export function composeRoutes(): AppRoute[] {
  return [
    {
      method: 'GET',
      path: '/app/api/compose/templates',
      handle: ({ req, context }) => {
        const app = queryText(req, 'app') || OWN_APP;
        const { designs } = context.core;
        const manifest = designs.manifest(app);
        return {
          templates: designs.listTemplates(app).map((template) => ({ name: template.name, fields: templateFields(template, manifest) })),
        };
      },
    },
    {
      method: 'POST',
      path: '/app/api/compose',
      handle: async ({ req, context }) => {
        const body = bodyObject(req);
        const notification = readNotification({ ...body, app: body.app ?? OWN_APP });
        return { ok: true, id: await context.core.notify(notification) };
      },
    },
    {
      method: 'POST',
      path: '/app/api/preview',
      handle: async ({ req, res, context }) => {
        const body = bodyObject(req);
        const given = body.notification ?? {};
        if (typeof given !== 'object' || given === null || Array.isArray(given)) throw errors.invalidField('notification', 'an object');
        const { template, ...data } = given as Record<string, unknown>;
        const theme = body.theme ?? 'light';
        if (theme !== 'light' && theme !== 'dark') throw errors.invalidChoice('theme', ['light', 'dark']);
        const app = body.app ?? data.app ?? OWN_APP;
        try {
          const request = readPost({ app, ...(template !== undefined ? { template } : {}), data, appearance: theme });
          // POST /v1/preview calls an unknown name a failed drawing (500, as its reference says); here it is what
          // the person chose, gone since Compose listed it: 404.
          if (typeof request.template === 'string' && !context.core.designs.templateOrBuiltin(request.app, request.template))
            throw errors.templateNotFound(request.template);
          await sendPreview(context.core, request, res);
        } catch (error) {
          throw asComposeError(error);
        }
      },
    },
  ];
}
