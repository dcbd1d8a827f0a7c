// The person's app: the one module that starts anything. It makes the window's models once, each given what it
// depends on (the API client, the event stream, the clock, the page's storage and address), starts the session,
// the live events and the first fetches, and draws the window with the models in its context.

// First, so that every other stylesheet comes after them: the tokens, the base and the controls every page uses.
import './ui/tokens.css';
import './ui/base.css';
import './ui/controls.css';
import { effect } from '@preact/signals';
import { render } from 'preact';
import { ApiModel } from './models/api.js';
import { AppsModel } from './models/apps.js';
import { ApprovalsModel } from './models/approvals.js';
import { ComposeModel } from './models/compose.js';
import { ConfirmModel } from './models/confirm.js';
import { type Models, ModelsContext } from './models/context.js';
import { systemClock } from './models/dependencies.js';
import { DesignerModel } from './models/designer.js';
import { DesktopModel } from './models/desktop.js';
import { EventStreamModel } from './models/events.js';
import { HistoryModel } from './models/history.js';
import { RelayModel } from './models/relay.js';
import { RouterModel } from './models/router.js';
import { SettingsModel } from './models/settings.js';
import { StatusModel } from './models/status.js';
import { ThemeModel } from './models/theme.js';
import { TimeModel } from './models/time.js';
import { App, goToSearch, windowTitle } from './shell/app.js';
import { keepShell, showUnreadBadge } from './shell/install.js';

/** The window is drawn once History's first rows are in, or after this long without them. */
const FIRST_PAINT_WAIT_MS = 250;

/** Every model of the window, each made once. */
function makeModels(): Models {
  const clock = systemClock;
  // First: the API client takes the session's CSRF value out of the address before anything reads or changes it.
  const api = new ApiModel(window);
  const events = new EventStreamModel(api, clock, EventSource);
  const theme = new ThemeModel(window);
  const apps = new AppsModel(api, events, clock);
  return {
    clock,
    time: new TimeModel(clock, document),
    api,
    events,
    router: new RouterModel(window),
    theme,
    status: new StatusModel(clock),
    confirm: new ConfirmModel(),
    apps,
    history: new HistoryModel({ api, events, clock }),
    approvals: new ApprovalsModel(api, events),
    compose: new ComposeModel(),
    settings: new SettingsModel(api, events, apps),
    desktop: new DesktopModel(api, events, clock),
    relay: new RelayModel(api, events, clock, document),
    designer: new DesignerModel(api, theme, events),
  };
}

async function start(): Promise<void> {
  const models = makeModels();
  const { api, events, history, apps, approvals } = models;
  // The pages fetch what they show at once, and again when the event stream opens (an event sent before it did
  // would be lost).
  void api.startSession().catch(() => undefined); // a 401 ends the session (models/api.ts); other failures show on the pages
  events.connect();
  const firstRows = history.reload();
  void apps.load();
  void approvals.load();
  void models.time.formats.value; // made while the rows are on their way
  effect(() => {
    document.title = windowTitle(models);
  });
  document.addEventListener('keydown', goToSearch);
  // One first paint with the rows in it, rather than an empty window painted and then painted again.
  await Promise.race([firstRows, new Promise((resolve) => setTimeout(resolve, FIRST_PAINT_WAIT_MS))]);
  render(
    <ModelsContext.Provider value={models}>
      <App />
    </ModelsContext.Provider>,
    document.getElementById('root')!,
  );
  showUnreadBadge(history.unreadTotal, api.sessionEnded);
  keepShell();
}

void start();
