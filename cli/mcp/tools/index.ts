// The agent tools of `notifier-mcp` (docs/mcp.md#tools). Each tool wraps one HTTP route (a
// few pick between two routes of the same thing, such as snooze and unsnooze); its input schema is the route's,
// its result the route's JSON. No tool presses a button, types a reply or grants an approval: only the person
// at the computer can, and the daemon has no route for it either.
//
// The tools live in one file per area, as the daemon's routes do in daemon/http/routes/; this is the list the
// server offers, in the order agents see it.

import { deleteApp, getAppSettings, listApps, registerApp, updateAppSettings } from './apps.js';
import { listApprovals, revokeApproval } from './approvals.js';
import { deleteAsset, listAssets, riveCheck, uploadAsset } from './assets.js';
import type { Tool } from './common.js';
import { deleteHistory, exportHistory, historySearch, listHistory, reshowNotification } from './history.js';
import { componentSchema, listShortcuts, listSymbols } from './lookups.js';
import { deleteManifest, getManifest, listManifests, putManifest } from './manifests.js';
import { dismiss, expandStack, listStacks, sendNotification, sendTest, snooze, speak } from './notifications.js';
import { designerSnapshot, renderPreview } from './previews.js';
import {
  createAgentKey,
  listAgentKeys,
  listConnectors,
  relayEvents,
  relayInstructions,
  relayPair,
  relayRemoveEventSubscription,
  relayStatus,
  relayUnpair,
  relayUsage,
  revokeAgentKey,
} from './relay.js';
import { getReplies, waitForReply } from './replies.js';
import { getQuietHours, getSettings, installVoice, setQuietHours, setSettings, voiceStatus } from './settings.js';
import { installMcp, notifierStatus } from './status.js';
import {
  deleteTemplate,
  duplicateTemplate,
  exportTemplateBundle,
  importTemplateBundle,
  listTemplates,
  putTemplate,
  renameTemplate,
  setDefaultTemplate,
  setFollowUp,
} from './templates.js';

export const TOOLS: Tool[] = [
  notifierStatus,
  sendNotification,
  sendTest,
  speak,
  dismiss,
  snooze,
  listStacks,
  expandStack,
  getReplies,
  waitForReply,
  renderPreview,
  designerSnapshot,
  riveCheck,
  listManifests,
  getManifest,
  putManifest,
  deleteManifest,
  componentSchema,
  listTemplates,
  putTemplate,
  deleteTemplate,
  duplicateTemplate,
  renameTemplate,
  setDefaultTemplate,
  setFollowUp,
  exportTemplateBundle,
  importTemplateBundle,
  listSymbols,
  listShortcuts,
  listAssets,
  uploadAsset,
  deleteAsset,
  registerApp,
  listApps,
  deleteApp,
  getAppSettings,
  updateAppSettings,
  getSettings,
  setSettings,
  getQuietHours,
  setQuietHours,
  voiceStatus,
  installVoice,
  installMcp,
  listApprovals,
  revokeApproval,
  listHistory,
  historySearch,
  reshowNotification,
  deleteHistory,
  exportHistory,
  relayStatus,
  relayPair,
  relayUnpair,
  relayUsage,
  listAgentKeys,
  createAgentKey,
  revokeAgentKey,
  listConnectors,
  relayEvents,
  relayRemoveEventSubscription,
  relayInstructions,
];

export const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
