import type { Banner } from '../../daemon/present/presenter.js';

/** A banner as the core hands it to a presenter: a CI result with a link button and a callback button. */
export const sampleBanner = (overrides: Partial<Banner> = {}): Banner => ({
  key: { app: 'ci', id: 'b1' },
  appName: 'CI',
  title: 'Build passed',
  subtitle: 'main',
  body: 'All 412 tests',
  actions: [
    { actionId: 'open-log', label: 'Open log', kind: 'url' },
    { actionId: 'approve', label: 'Approve', kind: 'callback' },
  ],
  snooze: false,
  priority: 'normal',
  expireSeconds: null,
  sound: null,
  ...overrides,
});
