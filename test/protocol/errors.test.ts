import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { ApiError, errors } from '../../protocol/errors.js';
import { ROOT, tempFolder } from '../helpers/daemon.js';

// Walks the error catalogue (protocol/errors.ts): every constructor is called with the sample arguments below. A
// constructor added without a sample fails here (and in `tsc`: the table's type asks for every key).

type Catalogue = typeof errors;

/** The arguments to call each constructor with. */
const SAMPLES: { [K in keyof Catalogue]: Parameters<Catalogue[K]> } = {
  missingField: ['title', 'the template has none'],
  invalidField: ['buttons[0].url', 'an http or https URL'],
  fieldTooLarge: ['body', 4096],
  invalidChoice: ['onConflict', ['keepBoth', 'replace', 'fail']],
  forbiddenHost: [],
  duplicateHost: [],
  duplicateAuthorization: [],
  forbiddenTarget: [],
  notAProxy: ['GET, POST, PUT, DELETE'],
  headersTooLarge: [65536],
  requestTimedOut: [],
  malformedRequest: [],
  forbiddenOrigin: [],
  unauthorized: [],
  routeNotFound: ['GET', '/v1/nothing'],
  methodNotAllowed: ['/v1/notify', 'POST'],
  bodyTooLarge: [],
  unsupportedEncoding: [],
  bodyCutOff: [],
  invalidJson: [],
  bodyNotObject: [],
  internal: [],
  saveFailed: ['ENOSPC'],
  notLocalFile: ['file://host/x', 'File URL host must be "localhost" or empty'],
  noSuchFile: ['~/missing.png'],
  tooManyScheduled: [],
  scheduledNotFound: ['backup', 'nightly'],
  tooManySendKeys: [],
  sendKeyNotFound: ['key-1a2b3c4d'],
  sendKeyOtherApp: ['backup', 'deploy'],
  sendKeyNotHere: [],
  tooManyApps: [],
  unknownApp: ['build'],
  unknownProgram: ['desktop.never-seen'],
  noSuchSession: [],
  readOnly: ['Evolution'],
  appIdRequired: [],
  permissionNotGrantable: ['revokeCommands'],
  noSettingsGiven: ['{"muteAllSounds":true}'],
  unknownSetting: ['volume', ['muteAllSounds', 'port']],
  invalidSetting: ['port', 'an integer from 1024 to 65535'],
  invalidQuietHours: ['windows must be an array'],
  portInUse: [48618, 48617],
  launchAtLoginFailed: ['systemctl failed'],
  launchAtLoginUnsupported: ['not supported on win32'],
  tooManyButtons: [],
  alreadyDismissed: [],
  notificationNotFound: [],
  noStack: ['build', 'ci'],
  approvalsCannotGrant: [],
  noApproval: ['build / commands'],
  noDenial: ['build / commands'],
  invalidManifest: [['app: at most 128 bytes', 'version: a whole number of at least 1']],
  noManifest: ['build'],
  tooManyManifests: [],
  defaultNeedsManifest: ['build'],
  invalidTemplate: ['invalid template: cell a: component: unknown type'],
  invalidTemplateName: ['must not be empty'],
  invalidNewName: ['newName', 'must not be empty'],
  templateNotFound: ['daily'],
  templateExists: ['daily', 'build'],
  builtinReadOnly: ['builtin.imageLeft'],
  builtinNeedsDuplicate: ['builtin.imageLeft'],
  builtinNotRenamable: [],
  saveTemplateFailed: ['daily', 'EACCES'],
  followUpOffTakesNothing: [],
  followUpNeedsAction: [],
  followUpActionTwice: [['shortcut', 'script']],
  inputNeedsShortcutOrScript: [],
  scriptNotPlainName: [],
  unknownActionRef: ['open', 'reply, snooze'],
  actionRefNotRunnable: ['open', 'url'],
  nothingDelivered: ['build'],
  previewFailed: ['template not found: daily'],
  assetNeedsOneSource: [],
  notPlainFileName: [],
  assetKindUnknown: [],
  sourceFileTooLarge: ['~/big.riv'],
  notAnAssetName: ['notes.txt'],
  noSuchAsset: ['logo.png'],
  emptyAsset: ['logo.png'],
  assetTooLarge: ['big.riv', '12 MB', '10 MB'],
  notAnImage: ['logo.png'],
  appSessionRequired: [],
  appCrossSite: [],
  appForeignOrigin: [],
  appCsrfMismatch: [],
  appJsonOnly: [],
  appNotBuilt: [],
  noSuchButton: ['approve'],
  takesNoReply: [],
  replyExpired: [],
  noSuchQuestion: [],
  noSuchConnectorRequest: [],
  speechUnavailable: ['There is no speech engine on this computer.'],
  speechFailed: ['espeak-ng exited with 1'],
  noCard: [],
  noIcon: ['build'],
  nothingToUndo: [],
  unreadableRiveFile: ['"x.riv" is not a Rive file (it does not start with RIVE)'],
  tooManyRiveFiles: [],
  tooManyImages: [],
  riveNeedsFile: [],
  remoteAsset: ['https://example.com/x.riv'],
  assetPathOutside: [],
  bundleUnreadable: ['it holds template.json twice'],
  bundleTooLarge: ['its files total 70000000 bytes (at most 64 MB in all)'],
  unsafeBundleName: ['../evil'],
  bundleMissingFile: ['bundle.json'],
  bundleVersion: [2, 1],
  bundleNamesNoApp: [],
  bundleNeedsOneSource: [],
  bundleAssetName: ['a/b.riv'],
  templateNotJson: [],
  bundlePathExtension: ['.notifiertemplate'],
  exportFolderMissing: ['/nowhere'],
  noSymbolList: ['Cannot find module'],
  unknownSymbolCategory: ['nope', ['all', 'arrows']],
  shortcutsTimeout: [],
  shortcutsMissing: [],
  shortcutsFailed: ['exit 1'],
  voiceInstalled: [],
  installRunning: [],
  voiceBuiltIn: [],
  installNeedsRoot: ['sudo apt-get install espeak-ng'],
  noInstallRunning: [],
  espeakNotFound: [],
  unknownClient: ['vim', ['claudeCode', 'codex']],
  configNotJson: ['~/.claude.json', 'Unexpected token'],
  configNotObject: ['~/.claude.json'],
  agentServerMissing: [],
  serverInstalled: ['Claude Code', 'notifier', '~/.claude.json'],
  launcherExists: ['~/.local/bin/notifier'],
  iconNotFound: ['~/agent.png'],
  relayNotPaired: [],
  relayUnreachable: ['http://127.0.0.1:8787', 'connection refused'],
  relayFailed: ['it answered 500: database is down'],
  relayRejectedToken: [],
  relayUnreadable: [502],
  relayTokenUnavailable: ['the keyring is locked'],
  relayLimited: ["this computer's daily request budget is used up"],
  relayRefused: [409, 'an active key is already named claude-code'],
};

/** The constructors that take the field they refuse, as their first argument. */
const TAKE_A_FIELD: ReadonlyArray<keyof Catalogue> = [
  'missingField',
  'invalidField',
  'fieldTooLarge',
  'invalidChoice',
  'permissionNotGrantable',
  'unknownSetting',
  'invalidSetting',
  'invalidNewName',
];

const names = Object.keys(errors) as Array<keyof Catalogue>;
const make = (name: keyof Catalogue): ApiError => (errors[name] as (...args: unknown[]) => ApiError)(...SAMPLES[name]);

describe('the error catalogue', () => {
  test('every constructor has sample arguments, and every sample a constructor', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...names].sort());
  });

  test.each(names)('%s makes an ApiError with a 4xx or 5xx status, a code and a message', (name) => {
    const error = make(name);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status >= 400 && error.status <= 599).toBe(true);
    expect(error.code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(error.message.trim()).not.toBe('');
  });

  test.each(names)('%s names its field (and reason) as data and in the message', (name) => {
    const error = make(name);
    if (TAKE_A_FIELD.includes(name)) expect(error.field).toBe(SAMPLES[name][0]);
    if (error.field !== undefined) expect(error.message).toContain(error.field);
    if (error.reason !== undefined) expect(error.message).toContain(error.reason);
  });

  test('codes are unique', () => {
    const codes = names.map((name) => make(name).code);
    expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
  });

  test('a field error without a reason has none, and reads `<problem>: <field>`', () => {
    const error = errors.invalidField('limit');
    expect(error.message).toBe('invalid field: limit');
    expect(error).toMatchObject({ status: 400, code: 'invalid_field', field: 'limit' });
    expect(error.reason).toBeUndefined();
    expect(errors.missingField('name', 'the file name').message).toBe('missing field: name (the file name)');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// No error is made outside the catalogue

const PRODUCT_FOLDERS = ['protocol', 'daemon', 'cli', 'tray', 'templates-renderer'];
const CATALOGUE_FILE = 'protocol/errors.ts';
const SOURCE = /\.[cm]?[jt]s$/;

/** Product source files (relative to `root`) that build an ApiError themselves instead of asking the catalogue. */
async function errorsMadeOutsideCatalogue(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(path.join(root, folder), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const file = path.posix.join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') await walk(file);
      else if (entry.isFile() && SOURCE.test(entry.name) && file !== CATALOGUE_FILE) {
        if ((await readFile(path.join(root, file), 'utf8')).includes('new ApiError(')) found.push(file);
      }
    }
  };
  for (const folder of PRODUCT_FOLDERS) await walk(folder);
  return found;
}

describe('errors are made only by the catalogue', () => {
  test('no product source file but protocol/errors.ts contains `new ApiError(`', async () => {
    expect(await errorsMadeOutsideCatalogue(ROOT)).toEqual([]);
  });

  test('the check finds one that does, in any product folder', async () => {
    const root = await tempFolder('notifier-catalogue-');
    try {
      await mkdir(path.join(root, 'protocol'), { recursive: true });
      await mkdir(path.join(root, 'daemon/core/apps'), { recursive: true });
      await writeFile(path.join(root, CATALOGUE_FILE), "export const x = () => new ApiError(400, 'x', 'x');\n");
      await writeFile(path.join(root, 'daemon/core/apps/rogue.ts'), "throw new ApiError(400, 'rogue');\n");
      await writeFile(path.join(root, 'daemon/core/apps/fine.ts'), 'throw errors.unknownApp(app);\n');
      expect(await errorsMadeOutsideCatalogue(root)).toEqual(['daemon/core/apps/rogue.ts']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
