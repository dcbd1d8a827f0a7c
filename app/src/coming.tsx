// Settings and the relay page come in the next version of the app; until then each page says so,
// and where the person can do the same thing today.

import type { VNode } from 'preact';
import { pageHref, PAGE_TITLES, type Page } from './router.js';

const COMING: Partial<Record<Page, () => VNode>> = {
  settings: () => (
    <p class="coming-text">
      Settings will be changed on this page in the next version of Notifier. Meanwhile, <strong>Quiet for an hour</strong> in the Notifier
      tray menu silences sounds and speech, and every setting can be changed with the <code>notifier settings</code> command (
      <code>notifier apps set</code> for one app).
    </p>
  ),
  relay: () => (
    <p class="coming-text">
      Pairing this computer with the cloud relay, its keys and its connectors will be managed here in the next version of Notifier.
      Meanwhile, requests from connectors already wait for you in <a href={pageHref('approvals')}>Approvals</a>, and pairing is done with
      the <code>notifier relay pair</code> command.
    </p>
  ),
};

export function ComingPage({ page }: { page: Page }): VNode {
  const Text = COMING[page]!;
  return (
    <div class="page coming">
      <header class="page-head">
        <div class="page-title">
          <h1>{PAGE_TITLES[page]}</h1>
        </div>
      </header>
      <Text />
    </div>
  );
}
