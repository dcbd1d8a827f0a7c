// The window's models, made once by main.tsx and handed to every page and part of the kit through one context:
// `useModels()` inside a component. Nothing else holds state.

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiModel } from './api.js';
import type { AppsModel } from './apps.js';
import type { ApprovalsModel } from './approvals.js';
import type { ComposeModel } from './compose.js';
import type { ConfirmModel } from './confirm.js';
import type { Clock } from './dependencies.js';
import type { DesktopModel } from './desktop.js';
import type { DesignerModel } from './designer.js';
import type { EventStreamModel } from './events.js';
import type { HistoryModel } from './history.js';
import type { RelayModel } from './relay.js';
import type { RouterModel } from './router.js';
import type { SettingsModel } from './settings.js';
import type { StatusModel } from './status.js';
import type { ThemeModel } from './theme.js';
import type { TimeModel } from './time.js';

export interface Models {
  /** Timers, for what a page schedules itself (the Designer's live preview). */
  clock: Clock;
  /** The present, as relative times are drawn against it. */
  time: TimeModel;
  api: ApiModel;
  events: EventStreamModel;
  router: RouterModel;
  theme: ThemeModel;
  status: StatusModel;
  confirm: ConfirmModel;
  apps: AppsModel;
  history: HistoryModel;
  approvals: ApprovalsModel;
  compose: ComposeModel;
  settings: SettingsModel;
  /** Other programs' notifications in History: Settings and History's first-run view. */
  desktop: DesktopModel;
  relay: RelayModel;
  designer: DesignerModel;
}

export const ModelsContext = createContext<Models | null>(null);

export function useModels(): Models {
  const models = useContext(ModelsContext);
  if (!models) throw new Error('useModels() outside the window: main.tsx provides the models');
  return models;
}
