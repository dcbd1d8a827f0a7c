// `/app/api/settings/desktop…` (docs/app.md#settings, docs/desktop.md "Every desktop notification in History"):
// whether other programs' notifications are kept in History, what watching the session bus is doing, and what is
// kept of each program. The person's alone: keeping other programs' notifications shows them to nobody but the
// person, so no `/v1` route, command or tool turns it on (docs/api-choices.md).

import path from 'node:path';
import {
  SETTINGS_DESKTOP_PROGRAM_PATTERN,
  settingsPaths,
  type DesktopAnswer,
  type DesktopProgram,
  type DesktopProgramRequest,
  type DesktopRequest,
} from '../../../protocol/app-api-settings.js';
import { PROGRAM_KEEPS, type ProgramKeep } from '../../../protocol/desktop-programs.js';
import { errors } from '../../../protocol/errors.js';
import { desktopAnswerSchema, desktopProgramSchema } from '../../../protocol/schemas/app-api.js';
import { flag, object, oneOfText } from '../../../protocol/schemas/json-schema.js';
import type { Route } from '../route.js';
import type { Services as AllServices } from '../services.js';
import { windowRoute } from './window-route.js';

type Services = Pick<AllServices, 'desktop' | 'store'>;

function desktopAnswer(services: Services): DesktopAnswer {
  return {
    keep: services.desktop.keeping,
    monitor: services.desktop.status(),
    where: path.join(services.store.root, 'history'),
    programs: services.desktop.programs(),
  };
}

function readKeep(body: { readonly keep?: unknown }): boolean {
  if (body.keep === undefined) throw errors.missingField('keep');
  if (typeof body.keep !== 'boolean') throw errors.invalidField('keep', 'true or false');
  return body.keep;
}

function readProgramKeep(body: { readonly keep?: unknown }): ProgramKeep {
  if (body.keep === undefined) throw errors.missingField('keep');
  if (!(PROGRAM_KEEPS as readonly unknown[]).includes(body.keep)) throw errors.invalidChoice('keep', PROGRAM_KEEPS);
  return body.keep as ProgramKeep;
}

export function desktopRoutes(): Route<Services>[] {
  return [
    windowRoute<Services, DesktopAnswer>({
      method: 'GET',
      path: settingsPaths.desktop,
      summary: "Other programs' notifications in History: kept or not, the watch on the session bus, the programs seen",
      reply: desktopAnswerSchema,
      handle: ({ services }) => desktopAnswer(services),
    }),
    windowRoute<Services, DesktopAnswer, DesktopRequest>({
      method: 'PUT',
      path: settingsPaths.desktop,
      summary: 'Keep every desktop notification in History, or stop (what was kept stays)',
      body: object({ keep: flag('keep other programs’ notifications from now on') }, ['keep']),
      reply: desktopAnswerSchema,
      errors: { 400: 'keep is not true or false' },
      handle: async ({ services, body }) => {
        await services.desktop.setKeeping(readKeep(body));
        return desktopAnswer(services);
      },
    }),
    windowRoute<Services, DesktopProgram, DesktopProgramRequest>({
      method: 'PUT',
      path: SETTINGS_DESKTOP_PROGRAM_PATTERN,
      summary: "What is kept of one program's notifications from now on: all, titles only, or none",
      params: { id: { description: 'the program’s app id, `desktop.` and its name' } },
      body: object({ keep: oneOfText(PROGRAM_KEEPS, 'all, titles or none') }, ['keep']),
      reply: desktopProgramSchema,
      errors: { 400: 'keep is none of all, titles and none', 404: 'no program of that id was seen' },
      handle: async ({ services, params, body }) => {
        const changed = await services.desktop.setProgramKeep(params.id!, readProgramKeep(body));
        if (!changed) throw errors.unknownProgram(params.id!);
        return changed;
      },
    }),
  ];
}
