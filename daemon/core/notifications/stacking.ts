import type { HistoryRecord, Manifest, StackingLevel } from '../../../protocol/types.js';

/**
 * docs/api/notifications.md#n44: how banners on screen are gathered into stacks. `bySender` (the default): one stack per
 * app and `group`; `byIssuer`: one per app; `byApp`: one per product (the manifest's `family`, else the app id up
 * to its first dot, so `acme.build` and `acme.deploy` stack together); `never`: no stacks. The stack a record
 * belongs to at a level; null at `never`.
 */
export function stackKey(record: HistoryRecord, level: StackingLevel, manifest: Manifest | undefined): string | null {
  switch (level) {
    case 'never':
      return null;
    case 'byApp':
      return `app\u0000${manifest?.family ?? record.app.split('.')[0]}`;
    case 'byIssuer':
      return `issuer\u0000${record.app}`;
    case 'bySender':
      return `sender\u0000${record.app}\u0000${record.notification.group ?? ''}`;
  }
}
