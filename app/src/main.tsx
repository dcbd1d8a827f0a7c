// The person's app: draws the window, and starts the session, the live events and the fetches.

import { render } from 'preact';
// First: api.ts takes the session's CSRF value out of the address before anything else reads or changes it.
import { startSession } from './api.js';
import { App } from './app.js';
import { followApprovals, loadApprovals } from './approvals/store.js';
import { followEvents, loadApps, reload } from './history/store.js';
import { keepShell, showUnreadBadge } from './install.js';
import { connectEvents } from './live.js';
import { formats } from './time.js';
import './theme.js';
import './styles.css';

/** The window is drawn once History's first rows are in, or after this long without them. */
const FIRST_PAINT_WAIT_MS = 250;

async function start(): Promise<void> {
  // The pages fetch what they show at once, and again when the event stream opens (an event sent before it did
  // would be lost).
  void startSession().catch(() => undefined); // a 401 ends the session (api.ts); other failures show on the pages
  followEvents();
  followApprovals();
  connectEvents();
  const firstRows = reload();
  void loadApps();
  void loadApprovals();
  formats(); // while the rows are on their way
  // One first paint with the rows in it, rather than an empty window painted and then painted again.
  await Promise.race([firstRows, new Promise((resolve) => setTimeout(resolve, FIRST_PAINT_WAIT_MS))]);
  render(<App />, document.getElementById('root')!);
  showUnreadBadge();
  keepShell();
}

void start();
