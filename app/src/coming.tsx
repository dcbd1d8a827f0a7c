// The designer comes in the next version of the app; until then its page says so,
// and where the person can do the same thing today.

import type { VNode } from 'preact';
import { pageHref, PAGE_TITLES, type Page } from './router.js';

const COMING: Partial<Record<Page, () => VNode>> = {
  designer: () => (
    <p class="coming-text">
      You will draw your own banner cards here, with a live preview, in the next version of Notifier. Meanwhile,{' '}
      <a href={pageHref('compose')}>Compose</a> draws the card of a template an app already has, and templates are saved with the{' '}
      <code>notifier template</code> command.
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
