// A Shift range in History's windowed list, in Chromium against a real daemon: the list holds only the rows near
// the ones in view, so a range whose ends are far apart has rows between them that the window never fetched. They
// are selected all the same (asked of the daemon), and an action on the selection reaches every one of them.

import { beforeAll, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { titleBecomes } from '../helpers/app-pages.js';
import { noonDaysAgo, openHistoryTab, type PastRecord, rowOf } from '../helpers/history-fixtures.js';

/** Far more rows than the list fetches around the ones in view. */
const COUNT = 400;
const PAST: PastRecord[] = Array.from({ length: COUNT }, (_, index) => ({
  app: 'ci',
  id: `build-${index}`,
  deliveredAt: new Date(noonDaysAgo(1).getTime() - index * 60_000),
  title: `Build ${index}`,
}));

let page: Page;

beforeAll(async () => {
  ({ page } = await openHistoryTab({ apps: [{ app: 'ci', appName: 'CI' }], past: PAST }));
  await rowOf(page, 'Build 0').waitFor();
}, 60_000);

test('Shift+click from the first row to the last selects every row between, fetched or not; Mark read reaches them all', async () => {
  await titleBecomes(page, `(${COUNT}) Notifier — History`);
  await rowOf(page, 'Build 0').getByRole('checkbox', { name: 'Select “Build 0”' }).click();
  // End moves the focus to the last row, and the list scrolls there: the rows in the middle were never fetched.
  await rowOf(page, 'Build 0').getByRole('link', { name: 'Build 0', exact: true }).focus();
  await page.keyboard.press('End');
  const last = `Build ${COUNT - 1}`;
  await rowOf(page, last).waitFor();
  await rowOf(page, last)
    .getByRole('checkbox', { name: `Select “${last}”` })
    .click({ modifiers: ['Shift'] });
  const bar = page.getByRole('group', { name: 'Selected notifications' });
  await bar.getByText(`${COUNT} selected`).waitFor();
  await bar.getByRole('button', { name: 'Mark read' }).click();
  // The title counts what the daemon says is unread: nothing, so every one of them was marked.
  await titleBecomes(page, 'Notifier — History');
});
