import { HeadlessPresenter } from './headless.js';
import type { Presenter } from './presenter.js';

/** Names accepted by `--presenter` / `NOTIFIER_PRESENTER`. */
export const PRESENTER_NAMES = ['auto', 'headless'] as const;
export type PresenterName = (typeof PRESENTER_NAMES)[number];

export function isPresenterName(name: string): name is PresenterName {
  return (PRESENTER_NAMES as readonly string[]).includes(name);
}

/**
 * The presenter for a name. `auto` picks the best display this machine has; native presenters (D-Bus on
 * Linux, node-notifier on macOS and Windows) arrive with issue 4, so today every choice draws headless.
 */
export function choosePresenter(name: PresenterName): { presenter: Presenter; note?: string } {
  if (name === 'auto') {
    return { presenter: new HeadlessPresenter(), note: 'no native presenter is built yet; banners are logged (headless)' };
  }
  return { presenter: new HeadlessPresenter() };
}
