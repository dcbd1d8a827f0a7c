// The person's app: starts the session (its CSRF value), the live events, and draws the window.

import { render } from 'preact';
import { sessionEnded, startSession } from './api.js';
import { App } from './app.js';
import { followApprovals, loadApprovals } from './approvals/store.js';
import { followEvents, loadApps, reload } from './history/store.js';
import { connectEvents } from './live.js';
import './theme.js';
import './styles.css';

async function start(): Promise<void> {
  const root = document.getElementById('root')!;
  try {
    await startSession();
  } catch {
    // A 401 ended the session (api.ts); another failure shows on the page's own requests.
  }
  render(<App />, root);
  if (sessionEnded.value) return;
  followEvents();
  followApprovals();
  // History and Approvals are fetched once the stream is open: an event sent before would otherwise be lost.
  await Promise.all([connectEvents().then(() => Promise.all([reload(), loadApprovals()])), loadApps()]);
}

void start();
