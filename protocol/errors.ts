// The error catalogue: every error the service's APIs answer with is made here, by one named constructor, so a
// message shared by several routes is written once and every status is chosen in one place. The status, the
// message and the code are part of the wire contract (clients and tests match on them): an error becomes
// `{"error": message, "code": code, "field"?, "reason"?}` with its status, on `/v1` and `/app/api` alike
// (errorBody below, written by daemon/http/error-handler.ts); anything thrown that is not an ApiError is a bug and
// becomes a 500 without details. The `code` is stable and unique; an error that names a field carries it, and its
// reason, as data: a caller that puts the field in its own place (`data.title` in a preview) and the template
// renderer read them there and never parse a message. test/protocol/errors.test.ts walks the catalogue.

import {
  ASSET_LIMITS,
  MAX_APPS,
  MAX_BODY_BYTES,
  MAX_BUTTONS,
  MAX_MANIFESTS,
  MAX_SCHEDULED,
  MAX_SEND_KEYS,
  SHORTCUTS_TIMEOUT_MS,
} from './limits.js';

export class ApiError extends Error {
  /** The field the error is about, as the caller named it (`buttons[0].url`). */
  readonly field?: string;
  /** Why the field was refused, when the message says it (`invalid field: <field> (<reason>)`). */
  readonly reason?: string;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    about: { field?: string; reason?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    if (about.field !== undefined) this.field = about.field;
    if (about.reason) this.reason = about.reason;
  }
}

/** The body of every error answer of the daemon (docs/api/README.md#errors). */
export interface ErrorBody {
  /** For people: says what is wrong and names the field (`missing field: title`). */
  error: string;
  /** Stable, for programs: `missing_field`, `unauthorized`, `app_session_required`… */
  code: string;
  /** The field at fault, as the caller named it (`buttons[0].url`). */
  field?: string;
  /** Why the field was refused, when the message says it. */
  reason?: string;
}

/** An error as it goes on the wire. */
export function errorBody(error: ApiError): ErrorBody {
  return {
    error: error.message,
    code: error.code,
    ...(error.field !== undefined ? { field: error.field } : {}),
    ...(error.reason !== undefined ? { reason: error.reason } : {}),
  };
}

/** `missing field: x`, `invalid field: x (why)`: the two ways every route refuses a field. */
const fieldError = (code: string, problem: string, field: string, why?: string): ApiError =>
  new ApiError(400, code, why ? `${problem}: ${field} (${why})` : `${problem}: ${field}`, { field, reason: why });

/** `a, b or c`. */
const orList = (choices: readonly string[]): string =>
  choices.length > 1 ? `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}` : choices.join('');

export const errors = {
  // Fields of a body or a query, on every route
  missingField: (field: string, why?: string) => fieldError('missing_field', 'missing field', field, why),
  invalidField: (field: string, why?: string) => fieldError('invalid_field', 'invalid field', field, why),
  fieldTooLarge: (field: string, maxBytes: number) =>
    new ApiError(413, 'field_too_large', `${field} is too large (at most ${maxBytes} bytes)`, { field }),
  invalidChoice: (field: string, choices: readonly string[]) =>
    new ApiError(400, 'invalid_choice', `${field} must be ${orList(choices)}`, { field }),

  // The request itself (daemon/http): the guard, the body, the route table; and what the service cannot do
  forbiddenHost: () => new ApiError(403, 'forbidden_host', 'forbidden: the Host header must be 127.0.0.1, localhost or [::1]'),
  duplicateHost: () => new ApiError(400, 'duplicate_host', 'bad request: the Host header was sent more than once'),
  duplicateAuthorization: () =>
    new ApiError(400, 'duplicate_authorization', 'bad request: the Authorization header was sent more than once (send one token)'),
  forbiddenTarget: () =>
    new ApiError(403, 'forbidden_target', 'forbidden: the request line names another server (send the path alone, as in GET /v1/health)'),
  notAProxy: (allowed: string) =>
    new ApiError(405, 'not_a_proxy', `method not allowed: CONNECT (Notifier is not a proxy; its routes take ${allowed})`),
  headersTooLarge: (maxBytes: number) =>
    new ApiError(431, 'headers_too_large', `request headers are too large (at most ${maxBytes} bytes)`),
  requestTimedOut: () => new ApiError(408, 'request_timed_out', 'the request did not arrive in time'),
  malformedRequest: () => new ApiError(400, 'malformed_request', 'malformed HTTP request'),
  forbiddenOrigin: () => new ApiError(403, 'forbidden_origin', 'forbidden: requests from web pages (an Origin header) are refused'),
  unauthorized: () => new ApiError(401, 'unauthorized', 'unauthorized: send Authorization: Bearer <the token in the support folder>'),
  routeNotFound: (method: string, path: string) => new ApiError(404, 'route_not_found', `not found: ${method} ${path}`),
  methodNotAllowed: (route: string, allowed: string) =>
    new ApiError(405, 'method_not_allowed', `method not allowed: ${route} takes ${allowed}`),
  bodyTooLarge: () => new ApiError(413, 'body_too_large', `body is too large (at most ${MAX_BODY_BYTES} bytes)`),
  unsupportedEncoding: () => new ApiError(415, 'unsupported_encoding', 'unsupported Content-Encoding: send the JSON body as is'),
  bodyCutOff: () => new ApiError(400, 'body_cut_off', 'the request body was cut off'),
  invalidJson: () => new ApiError(400, 'invalid_json', 'invalid JSON'),
  bodyNotObject: () => new ApiError(400, 'body_not_object', 'invalid JSON: the body must be a JSON object'),
  internal: () => new ApiError(500, 'internal', 'internal error (details are in the Notifier log)'),
  saveFailed: (why: string) => new ApiError(500, 'save_failed', `could not save to the support folder: ${why}`),

  // Files a caller names
  notLocalFile: (given: string, why: string) => new ApiError(400, 'not_local_file', `not a file on this computer: ${given} (${why})`),
  noSuchFile: (given: string) => new ApiError(400, 'no_such_file', `no such file: ${given}`),

  // Apps, their settings and the global settings
  tooManyScheduled: () =>
    new ApiError(429, 'too_many_scheduled', `too many notifications wait for their time (at most ${MAX_SCHEDULED}); cancel one first`),
  scheduledNotFound: (app: string, id: string) =>
    new ApiError(404, 'scheduled_not_found', `no notification of ${app} waits with the id ${id}`),
  tooManySendKeys: () => new ApiError(429, 'too_many_send_keys', `too many sending keys (at most ${MAX_SEND_KEYS}); revoke one first`),
  sendKeyNotFound: (id: string) => new ApiError(404, 'send_key_not_found', `no sending key ${id}`),
  sendKeyOtherApp: (keyApp: string, app: string) =>
    new ApiError(403, 'send_key_other_app', `forbidden: app ${app} is not this sending key's (it sends as ${keyApp} only)`, {
      field: 'app',
    }),
  sendKeyNotHere: () =>
    new ApiError(403, 'send_key_not_here', 'forbidden: a sending key only sends notifications; this route needs the API token'),
  tooManyApps: () => new ApiError(429, 'too_many_apps', `too many apps (at most ${MAX_APPS})`),
  unknownApp: (app: string) => new ApiError(404, 'unknown_app', `unknown app: ${app}`),
  noSuchSession: () => new ApiError(404, 'no_such_session', 'no signed-in window has that handle'),
  unknownProgram: (app: string) => new ApiError(404, 'unknown_program', `no program ${app} has sent a notification`),
  readOnly: (program: string) =>
    new ApiError(409, 'read_only', `${program}'s notifications are read-only here: their buttons and banners belong to ${program}`),
  appIdRequired: () => new ApiError(400, 'app_id_required', 'app id is required: DELETE /v1/apps/{id}'),
  permissionNotGrantable: (key: string) =>
    new ApiError(
      403,
      'permission_not_grantable',
      `${key}: only true is accepted; a permission is granted only by the person at the computer`,
      {
        field: key,
      },
    ),
  noSettingsGiven: (example: string) => new ApiError(400, 'no_settings_given', `no settings given; send an object such as ${example}`),
  unknownSetting: (key: string, known: readonly string[]) =>
    new ApiError(400, 'unknown_setting', `unknown setting: ${key} (known: ${known.join(', ')})`, { field: key }),
  invalidSetting: (key: string, why: string) =>
    new ApiError(400, 'invalid_setting', `invalid value for ${key}: ${why}`, { field: key, reason: why }),
  /** The quiet-hours change's problems, each a sentence naming its field (daemon/core/settings/quiet-hours.ts). */
  invalidQuietHours: (problem: string) => new ApiError(400, 'invalid_quiet_hours', problem),
  portInUse: (port: number, current: number) =>
    new ApiError(409, 'port_in_use', `port ${port} is in use by another program; Notifier stays on ${current}`, { field: 'port' }),
  launchAtLoginFailed: (why: string) => new ApiError(500, 'launch_at_login_failed', `launchAtLogin: ${why}`, { field: 'launchAtLogin' }),
  launchAtLoginUnsupported: (why: string) =>
    new ApiError(501, 'launch_at_login_unsupported', `launchAtLogin: ${why}`, { field: 'launchAtLogin' }),

  // Notifications and their banners
  tooManyButtons: () => new ApiError(413, 'too_many_buttons', `too many buttons (at most ${MAX_BUTTONS})`, { field: 'buttons' }),
  alreadyDismissed: () => new ApiError(400, 'already_dismissed', 'the notification was already dismissed'),
  notificationNotFound: () => new ApiError(404, 'notification_not_found', 'no such notification in History'),
  noStack: (app: string, group: string) => new ApiError(404, 'no_stack', `no stack of two or more banners for ${app} / ${group}`),

  // Approvals
  approvalsCannotGrant: () =>
    new ApiError(403, 'approvals_cannot_grant', 'commands: only true is accepted; nothing can grant here', { field: 'commands' }),
  noApproval: (what: string) => new ApiError(404, 'no_approval', `no approval for ${what}`),
  noDenial: (what: string) => new ApiError(404, 'no_denial', `nothing denied for ${what}`),

  // Manifests
  /** Every problem of a manifest at once, each `<path>: <why>` (daemon/core/templates/manifest-rules.ts). */
  invalidManifest: (problems: readonly string[]) => new ApiError(400, 'invalid_manifest', `invalid manifest: ${problems.join('; ')}`),
  noManifest: (app: string) => new ApiError(404, 'no_manifest', `${app} has no manifest`),
  tooManyManifests: () => new ApiError(429, 'too_many_manifests', `too many manifests (at most ${MAX_MANIFESTS})`),
  defaultNeedsManifest: (app: string) =>
    new ApiError(
      400,
      'default_needs_manifest',
      `${app} has no manifest; put one first with PUT /v1/manifest, then set its default template`,
    ),

  // Templates
  /** Every problem of a template at once, as templateErrorMessage writes them (templates-renderer/validate.ts). */
  invalidTemplate: (problems: string) => new ApiError(400, 'invalid_template', problems),
  invalidTemplateName: (problem: string) =>
    new ApiError(400, 'invalid_template_name', `invalid template name: ${problem}`, { field: 'name', reason: problem }),
  invalidNewName: (field: string, problem: string) =>
    new ApiError(400, 'invalid_new_name', `invalid ${field}: ${problem}`, { field, reason: problem }),
  templateNotFound: (name?: string) =>
    new ApiError(404, 'template_not_found', name === undefined ? 'template not found' : `template not found: ${name}`),
  templateExists: (name: string, app: string) => new ApiError(409, 'template_exists', `a template named ${name} already exists for ${app}`),
  builtinReadOnly: (name: string) => new ApiError(400, 'builtin_read_only', `${name} is a built-in layout and read-only`),
  builtinNeedsDuplicate: (name: string) =>
    new ApiError(
      400,
      'builtin_needs_duplicate',
      `${name} is a built-in layout and read-only; duplicate it first (POST /v1/templates/duplicate)`,
    ),
  builtinNotRenamable: () => new ApiError(400, 'builtin_not_renamable', 'a built-in template cannot be renamed; duplicate it instead'),
  saveTemplateFailed: (name: string, why: string) => new ApiError(500, 'save_template_failed', `could not save template ${name}: ${why}`),

  // A template's follow-up (PUT /v1/templates/follow-up)
  followUpOffTakesNothing: () =>
    new ApiError(400, 'follow_up_off_takes_nothing', 'enabled: false switches the follow-up off and takes no other follow-up field', {
      field: 'enabled',
    }),
  followUpNeedsAction: () => new ApiError(400, 'follow_up_needs_action', 'give the action: one of shortcut, script, command or actionRef'),
  followUpActionTwice: (given: readonly string[]) =>
    new ApiError(
      400,
      'follow_up_action_twice',
      `give the action once: one of shortcut, script, command or actionRef (got ${given.join(', ')})`,
    ),
  inputNeedsShortcutOrScript: () =>
    new ApiError(400, 'input_needs_shortcut_or_script', 'input goes with a shortcut or a script', { field: 'input' }),
  scriptNotPlainName: () =>
    new ApiError(400, 'script_not_plain_name', "script must be a plain file name in Notifier's scripts folder, not a path", {
      field: 'script',
    }),
  unknownActionRef: (actionRef: string, known: string) =>
    new ApiError(400, 'unknown_action_ref', `actionRef '${actionRef}' is not an action this app offers (${known})`, { field: 'actionRef' }),
  actionRefNotRunnable: (actionRef: string, kind: string) =>
    new ApiError(
      400,
      'action_ref_not_runnable',
      `actionRef '${actionRef}' is a '${kind}' action; a follow-up runs a shortcut, script, command or callback`,
      { field: 'actionRef' },
    ),

  // Previews
  nothingDelivered: (app: string) =>
    new ApiError(
      400,
      'nothing_delivered',
      `no notification has been delivered for ${app} yet; use the sample data (data=sample, or a data object in a POST body)`,
    ),
  previewFailed: (why: string) => new ApiError(500, 'preview_failed', `the preview could not be drawn: ${why}`),

  // Assets (Rive files and images)
  assetNeedsOneSource: () =>
    new ApiError(400, 'asset_needs_one_source', 'give exactly one of base64 (with name) or path (a file on this computer)'),
  notPlainFileName: () =>
    new ApiError(400, 'not_plain_file_name', 'invalid file name: use a plain name without folders, for example logo.png'),
  assetKindUnknown: () =>
    new ApiError(
      400,
      'asset_kind_unknown',
      'cannot tell the kind from the name; end it in .riv or an image extension (.png, .jpg, ...), or give kind',
    ),
  sourceFileTooLarge: (given: string) => new ApiError(413, 'source_file_too_large', `${given} is larger than ${ASSET_LIMITS.bytes} bytes`),
  notAnAssetName: (file: string) => new ApiError(400, 'not_an_asset_name', `${file} is not a Rive file or an image name`),
  noSuchAsset: (file: string) => new ApiError(404, 'no_such_asset', `no such asset: ${file}`),
  emptyAsset: (file: string) => new ApiError(400, 'empty_asset', `${file} is empty`),
  /** `size` and `limit` as the asset store writes them (`12 MB`). */
  assetTooLarge: (file: string, size: string, limit: string) =>
    new ApiError(413, 'asset_too_large', `${file} is ${size}; assets are limited to ${limit}`),
  notAnImage: (file: string) =>
    new ApiError(400, 'not_an_image', `not an image this computer can draw: ${file} (PNG, JPEG, GIF, WebP, TIFF, BMP, HEIC, AVIF)`),
  /** Why a file is no Rive file this computer reads, as the header check says it (daemon/core/templates/assets.ts). */
  unreadableRiveFile: (why: string) => new ApiError(400, 'unreadable_rive_file', why),
  tooManyRiveFiles: () => new ApiError(429, 'too_many_rive_files', `an app can have at most ${ASSET_LIMITS.riveFiles} animation assets`),
  tooManyImages: () => new ApiError(429, 'too_many_images', `an app can hold at most ${ASSET_LIMITS.images} images`),
  riveNeedsFile: () => new ApiError(400, 'rive_needs_file', 'the Rive component has no asset or path'),
  remoteAsset: (given: string) => new ApiError(400, 'remote_asset', `remote assets are not supported: ${given}`),
  assetPathOutside: () => new ApiError(400, 'asset_path_outside', "a relative asset path cannot leave the app's assets folder"),

  // Template bundles (export and import)
  bundleUnreadable: (why: string) => new ApiError(400, 'bundle_unreadable', `the bundle cannot be read: ${why}`),
  bundleTooLarge: (why: string) => new ApiError(413, 'bundle_too_large', `the bundle is too large: ${why}`),
  unsafeBundleName: (name: string) => new ApiError(400, 'unsafe_bundle_name', `unsafe name in the bundle: ${name}`),
  bundleMissingFile: (file: string) => new ApiError(400, 'bundle_missing_file', `the bundle has no ${file}`),
  bundleVersion: (version: number, readable: number) =>
    new ApiError(400, 'bundle_version', `the bundle is format version ${version}; this Notifier reads version ${readable}`),
  bundleNamesNoApp: () => new ApiError(400, 'bundle_names_no_app', 'the bundle names no app; give app'),
  bundleNeedsOneSource: () =>
    new ApiError(400, 'bundle_needs_one_source', 'give exactly one of base64 or path (a .notifiertemplate file on this computer)'),
  bundleAssetName: (file: string) =>
    new ApiError(400, 'bundle_asset_name', `an asset name must be a plain file name: ${JSON.stringify(file)}`),
  templateNotJson: () => new ApiError(400, 'template_not_json', 'the template cannot be written as JSON'),
  bundlePathExtension: (extension: string) =>
    new ApiError(400, 'bundle_path_extension', `path must end in ${extension}`, { field: 'path' }),
  exportFolderMissing: (folder: string) =>
    new ApiError(400, 'export_folder_missing', `the folder of path does not exist: ${folder}`, { field: 'path' }),

  // Lookups: symbols and shortcuts
  noSymbolList: (why: string) => new ApiError(501, 'no_symbol_list', `this computer has no symbol list: ${why}`),
  unknownSymbolCategory: (category: string, known: readonly string[]) =>
    new ApiError(400, 'unknown_symbol_category', `unknown category: ${category} (known: ${known.join(', ')})`, { field: 'category' }),
  shortcutsTimeout: () =>
    new ApiError(504, 'shortcuts_timeout', `the shortcuts tool did not answer within ${SHORTCUTS_TIMEOUT_MS / 1000} s`),
  shortcutsMissing: () =>
    new ApiError(502, 'shortcuts_missing', 'the shortcuts tool is not on this computer (Apple Shortcuts exists on macOS only)'),
  shortcutsFailed: (why: string) => new ApiError(502, 'shortcuts_failed', `the shortcuts tool failed: ${why}`),

  // The voice engine's installation
  voiceInstalled: () => new ApiError(409, 'voice_installed', 'the voice engine is already installed'),
  installRunning: () => new ApiError(409, 'install_running', 'an installation is already running'),
  voiceBuiltIn: () => new ApiError(409, 'voice_built_in', 'the system voice is built in: there is nothing to install'),
  installNeedsRoot: (command: string) =>
    new ApiError(
      409,
      'install_needs_root',
      `the service cannot install espeak-ng itself (it does not run as root); run: ${command}, then POST /v1/voice/install {"action":"useExisting"}`,
    ),
  noInstallRunning: () => new ApiError(409, 'no_install_running', 'no installation is running'),
  espeakNotFound: () => new ApiError(404, 'espeak_not_found', 'no espeak-ng was found on the PATH; install it first'),

  // Installing the agent server (POST /v1/mcp/install)
  unknownClient: (client: string, known: readonly string[]) =>
    new ApiError(400, 'unknown_client', `unknown client: ${client} (known: ${known.join(', ')})`, { field: 'client' }),
  configNotJson: (file: string, why: string) =>
    new ApiError(409, 'config_not_json', `${file} is not valid JSON (${why}); fix or move it first, nothing was changed`),
  configNotObject: (file: string) =>
    new ApiError(409, 'config_not_object', `${file} does not hold a JSON object; fix or move it first, nothing was changed`),
  agentServerMissing: () =>
    new ApiError(500, 'agent_server_missing', 'the agent server (notifier-mcp) was not found in the package this daemon runs from'),
  serverInstalled: (client: string, server: string, file: string) =>
    new ApiError(409, 'server_installed', `${client} already has a ${server} server in ${file}; send reinstall: true to replace it`),
  launcherExists: (file: string) => new ApiError(409, 'launcher_exists', `${file} already exists; send reinstall: true to replace it`),
  iconNotFound: (icon: string) => new ApiError(400, 'icon_not_found', `icon file not found: ${icon}`, { field: 'icon' }),

  // The person's app (docs/app.md): its own door, `/app`, opened by the person's session only
  appSessionRequired: () =>
    new ApiError(401, 'app_session_required', 'your session ended (or there is none): open Notifier again from its tray menu or app menu'),
  appCrossSite: () =>
    new ApiError(403, 'app_cross_site', "forbidden: the person's app answers only its own pages (Sec-Fetch-Site must be same-origin)"),
  appForeignOrigin: () => new ApiError(403, 'app_foreign_origin', "forbidden: a change must come from the app's own page (Origin)"),
  appCsrfMismatch: () =>
    new ApiError(
      403,
      'app_csrf_mismatch',
      "forbidden: every request must carry the session's X-Notifier-CSRF value, which the app's page got when it signed in",
    ),
  appJsonOnly: () =>
    new ApiError(
      415,
      'app_json_only',
      "unsupported media type: a change to the app's API sends its body as Content-Type: application/json",
    ),
  appNotBuilt: () =>
    new ApiError(503, 'app_not_built', "the person's app is not built: run npm run setup (or npm run build) and open it again"),
  noSuchButton: (actionId: string) =>
    new ApiError(404, 'no_such_button', `actionId: the notification has no button ${actionId}`, { field: 'actionId' }),
  takesNoReply: () => new ApiError(400, 'takes_no_reply', 'text: the notification takes no reply', { field: 'text' }),
  replyExpired: () => new ApiError(409, 'reply_expired', 'text: the question has expired and takes no reply any more', { field: 'text' }),
  noSuchQuestion: () => new ApiError(404, 'no_such_question', 'no such question: it was answered or is no longer asked'),
  noSuchConnectorRequest: () => new ApiError(404, 'no_such_connector_request', 'no such connector request: it was answered or has expired'),
  speechUnavailable: (why: string) => new ApiError(409, 'speech_unavailable', why),
  speechFailed: (reason: string) => new ApiError(500, 'speech_failed', `The voice could not be played: ${reason}`),
  noCard: () => new ApiError(404, 'no_card', 'the notification has no card picture (no template or layout)'),
  noIcon: (app: string) => new ApiError(404, 'no_icon', `${app} has no icon`),
  nothingToUndo: () =>
    new ApiError(404, 'nothing_to_undo', 'There is nothing to undo: it was undone already, or too long ago, or Notifier restarted since.'),

  // The cloud relay, as this computer uses it (docs/api/relay-connection.md)
  relayNotPaired: () =>
    new ApiError(
      409,
      'relay_not_paired',
      'not paired with a relay: pair this computer first with notifier relay pair <relay-url> (POST /v1/relay/pair)',
    ),
  relayUnreachable: (relayURL: string, why: string) =>
    new ApiError(502, 'relay_unreachable', `cannot reach the relay at ${relayURL} (${why})`),
  /** The relay was reached but did not do its part: a 5xx, a redirect, a pairing answer without its fields. */
  relayFailed: (why: string) => new ApiError(502, 'relay_failed', `the relay failed: ${why}`),
  relayRejectedToken: () =>
    new ApiError(
      502,
      'relay_rejected_token',
      "the relay rejected this computer's token: pair again with notifier relay pair <relay-url> (POST /v1/relay/pair)",
    ),
  relayUnreadable: (status: number) =>
    new ApiError(502, 'relay_unreadable', `the relay answered ${status} with something that is not JSON`),
  /** RL3: the token is kept in a keyring that is locked or not running now (the status says `starting`). */
  relayTokenUnavailable: (why: string) =>
    new ApiError(503, 'relay_token_unavailable', `the device token cannot be read now: ${why} (it is read again once it can be)`),
  relayLimited: (message: string) => new ApiError(429, 'relay_limited', `the relay is limiting this computer: ${message}`),
  /** Any other refusal of the relay, with its status and its message. */
  relayRefused: (status: number, message: string) => new ApiError(status, 'relay_refused', `the relay refused: ${message}`),
};
