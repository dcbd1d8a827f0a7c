// What a route may be given (docs/architecture.md, "One route model"): the core's parts and the window's. Each route
// family names the few it uses (`Pick<Services, …>`), so a handler reaches nothing else.

import type { Core } from '../core/core.js';
import type { WindowParts } from './window/parts.js';

/** Every service a route may be given: the core's parts and the window's. */
export type Services = Core & WindowParts;
