// The stacks on screen (docs/api/notifications.md#n44, #n45): groups of two or more banners, gathered at each app's
// stacking level, and which of them the caller opened.

import { errors } from '../../../protocol/errors.js';
import type { HistoryRecord, StackingLevel } from '../../../protocol/types.js';
import type { History } from '../history/history.js';
import type { Designs } from '../templates/designs.js';
import type { Banners } from './banners.js';
import type { DeliveryRules } from './delivery.js';
import { stackKey } from './stacking.js';

/** An item of `GET /v1/stacks` (docs/api/notifications.md#n44). */
export interface Stack {
  level: StackingLevel;
  app: string;
  group?: string;
  count: number;
  expanded: boolean;
  members: Array<{ app: string; id: string; title: string; group?: string; deliveredAt: string }>;
}

/** Which stack a stack is, for remembering that it was opened: its level, app and group. */
const stackIdentity = (stack: Stack): string => `${stack.level}\u0000${stack.app}\u0000${stack.group ?? ''}`;

const newestFirst = (a: HistoryRecord, b: HistoryRecord): number => (a.deliveredAt < b.deliveredAt ? 1 : -1);

export class Stacks {
  /** Stacks the caller opened (POST /v1/stacks/expand), by `stackIdentity`. */
  private readonly expanded = new Set<string>();

  constructor(
    private readonly banners: Pick<Banners, 'list'>,
    private readonly history: Pick<History, 'get'>,
    private readonly designs: Pick<Designs, 'manifest'>,
    private readonly rules: Pick<DeliveryRules, 'stackingOf'>,
  ) {}

  /** GET /v1/stacks: groups of two or more banners on screen, newest first, at each app's stacking level. */
  list(app?: string): Stack[] {
    const stacks = new Map<string, { level: StackingLevel; members: HistoryRecord[] }>();
    for (const key of this.banners.list(app === undefined ? {} : { app })) {
      const record = this.history.get(key.app, key.id);
      const level = this.rules.stackingOf(key.app);
      const stack = record && stackKey(record, level, this.designs.manifest(record.app));
      if (!record || !stack) continue;
      if (!stacks.has(stack)) stacks.set(stack, { level, members: [] });
      stacks.get(stack)!.members.push(record);
    }
    return [...stacks.values()]
      .filter(({ members }) => members.length >= 2)
      .map(({ level, members }) => ({ level, members: members.sort(newestFirst) }))
      .sort((a, b) => newestFirst(a.members[0]!, b.members[0]!))
      .map(({ level, members }) => this.described(level, members));
  }

  /**
   * POST /v1/stacks/expand: opens or closes one app's stack — the stack of `group` (the notifications' group, else
   * the app id). 404 when there is no stack of two or more banners there.
   */
  expand(app: string, group: string, expanded: boolean): void {
    const stack = this.list(app).find((found) => (found.group ?? found.app) === group);
    if (!stack) throw errors.noStack(app, group);
    // Stacks that have come apart since are forgotten, so one that forms again starts closed.
    const live = new Set(this.list().map(stackIdentity));
    for (const known of this.expanded) if (!live.has(known)) this.expanded.delete(known);
    const key = stackIdentity(stack);
    if (expanded) this.expanded.add(key);
    else this.expanded.delete(key);
  }

  private described(level: StackingLevel, members: HistoryRecord[]): Stack {
    const first = members[0]!;
    const stack: Stack = {
      level,
      app: first.app,
      ...(level === 'bySender' && first.notification.group ? { group: first.notification.group } : {}),
      count: members.length,
      expanded: false,
      members: members.map((record) => ({
        app: record.app,
        id: record.id,
        title: record.notification.title ?? '',
        ...(record.notification.group ? { group: record.notification.group } : {}),
        deliveredAt: record.deliveredAt,
      })),
    };
    return { ...stack, expanded: this.expanded.has(stackIdentity(stack)) };
  }
}
