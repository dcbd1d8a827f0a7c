// The schemas that several routes share. The OpenAPI document writes each once, under components/schemas, and
// refers to it wherever a route's schema holds it (the same object, not a copy).

import { appSettingsViewSchema, settingRuleSchema } from './apps.js';
import { errorSchema, okSchema } from './common.js';
import { historyRecordSchema, storedNotificationSchema } from './history.js';
import type { JsonSchema } from './json-schema.js';
import { manifestSchema } from './manifests.js';
import { followUpSchema, notificationSchema } from './notification.js';
import { registerSchema } from './register.js';
import { replyRecordSchema } from './replies.js';
import { quietHoursSchema, settingsSchema } from './settings.js';
import { templateSchema } from './templates.js';

export const SHARED_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Error: errorSchema,
  Ok: okSchema,
  Notification: notificationSchema,
  FollowUp: followUpSchema,
  StoredNotification: storedNotificationSchema,
  HistoryRecord: historyRecordSchema,
  ReplyRecord: replyRecordSchema,
  AppRegistration: registerSchema,
  AppSettings: appSettingsViewSchema,
  SettingRule: settingRuleSchema,
  Settings: settingsSchema,
  QuietHours: quietHoursSchema,
  Template: templateSchema,
  Manifest: manifestSchema,
};
