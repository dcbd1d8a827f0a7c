// What the `notifier` command sends, command by command: method, path, query and body, recorded by a small HTTP
// server that stands in for the service (its `port` and `token` files in a temporary support folder). The built
// CLI runs as a child process, as a person runs it. The real daemon's answers are tested in cli.test.ts.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CLI, tempFolder, tempFolderSync } from '../helpers/daemon.js';
import { type Run, type RunOptions, runProgram } from '../helpers/process.js';

const TOKEN = 'ab'.repeat(32);

interface Recorded {
  method: string;
  /** The path as sent, before `?` (percent-encoding kept). */
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
}

let server: http.Server;
let port: number;
/** Made now: the table below names files in the folder the CLI runs in. */
const supportDir = tempFolderSync('notifier-cli-routes-');
const workDir = path.join(supportDir, 'work');
mkdirSync(workDir);
let recorded: Recorded[] = [];
/** Canned answers by `METHOD /path`; anything else answers 200 {"ok": true}. */
const answers = new Map<string, { status: number; body: unknown }>();

const BUNDLE_BYTES = Buffer.from('PK\u0003\u0004 a bundle');

function runCli(args: string[], options: RunOptions = {}): Promise<Run> {
  return runProgram(process.execPath, [CLI, ...args], {
    ...options,
    cwd: options.cwd ?? workDir,
    env: { NOTIFIER_SUPPORT_DIR: supportDir, ...options.env },
  });
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url!, 'http://127.0.0.1');
      recorded.push({
        method: req.method!,
        path: req.url!.split('?')[0]!,
        query: Object.fromEntries(url.searchParams),
        body: text ? JSON.parse(text) : undefined,
        authorization: req.headers.authorization,
      });
      const answer = answers.get(`${req.method} ${url.pathname}`) ?? { status: 200, body: { ok: true } };
      if (answer.status === 0) return void req.socket.destroy(); // no answer at all
      const body = JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  await writeFile(path.join(supportDir, 'port'), `${port}\n`);
  await writeFile(path.join(supportDir, 'token'), `${TOKEN}\n`);
  await writeFile(path.join(workDir, 'template.json'), JSON.stringify({ app: 'demo', name: 'card', title: '{title}' }));
  await writeFile(
    path.join(workDir, 'body.json'),
    JSON.stringify({ app: 'from-json', title: 'From JSON', metadata: { a: 1 }, defaults: { sound: 'Glass' } }),
  );
  await writeFile(path.join(workDir, 'card.notifiertemplate'), BUNDLE_BYTES);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(supportDir, { recursive: true, force: true });
});

beforeEach(() => {
  recorded = [];
  answers.clear();
});

interface Row {
  words: string;
  argv: string[];
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** `notifier notify --app demo --title T` and what follows. */
const notifyDemo = (...rest: string[]): string[] => ['notify', '--app', 'demo', '--title', 'T', ...rest];

/** `words` is the command line as a person types it; `argv` splits it (quoted arguments given as such). */
const row = (argv: string[], method: string, route: string, expected: { query?: Record<string, string>; body?: unknown } = {}): Row => ({
  words: argv.join(' '),
  argv,
  method,
  path: route,
  ...expected,
});

const resolved = (file: string) => path.join(workDir, file);

const PARITY: Row[] = [
  // notify: every flag to its field
  row(['notify', '--app', 'demo', '--title', 'Hello'], 'POST', '/v1/notify', { body: { app: 'demo', title: 'Hello' } }),
  row(
    [
      'notify',
      '--app',
      'demo',
      '--id',
      'n1',
      '--title',
      'T',
      '--subtitle',
      'S',
      '--body',
      'B',
      '--image',
      'pic.png',
      '--url',
      'https://example.com/x',
      '--group',
      'g',
      '--sound',
      'none',
      '--timeout',
      '12.5',
      '--persistent',
      '--snooze',
      '--priority',
      'high',
      '--metadata',
      '{"k":"v","n":2}',
      '--template',
      'card',
      '--layout',
      'hero',
      '--accent',
      '#1E90FF',
      '--max-body-lines',
      '3',
      '--audio',
      '/tmp/voice.wav',
      '--presentation',
      'both',
    ],
    'POST',
    '/v1/notify',
    {
      body: {
        app: 'demo',
        id: 'n1',
        title: 'T',
        subtitle: 'S',
        body: 'B',
        image: resolved('pic.png'),
        url: 'https://example.com/x',
        group: 'g',
        sound: 'none',
        timeout: 12.5,
        persistent: true,
        snooze: true,
        priority: 'high',
        metadata: { k: 'v', n: 2 },
        template: 'card',
        layout: 'hero',
        accentColor: '#1E90FF',
        maxBodyLines: 3,
        audio: '/tmp/voice.wav',
        presentation: 'both',
      },
    },
  ),
  row(notifyDemo('--no-persistent', '--no-snooze', '--timeout', '0'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', persistent: false, snooze: false, timeout: 0 },
  }),
  row(notifyDemo('--no-subtitle'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', showSubtitle: false },
  }),
  row(notifyDemo('--body', 'kept', '--no-body', '--no-time'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', body: 'kept', showBody: false, showTimestamp: false },
  }),
  row(['notify', '--app', 'demo', '--template', 'card'], 'POST', '/v1/notify', { body: { app: 'demo', template: 'card' } }),
  row(notifyDemo('--speak'), 'POST', '/v1/notify', { body: { app: 'demo', title: 'T', speak: true } }),
  row(notifyDemo('--speak-text', 'Say this', '--voice', 'af_heart', '--speed', '1.5', '--lang', 'en-us'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', speak: { text: 'Say this', voice: 'af_heart', speed: 1.5, lang: 'en-us' } },
  }),
  row(
    notifyDemo(
      '--button',
      'Open=https://example.com/?a=b',
      '--button',
      'Build=cmd:make all',
      '--button',
      'Tidy=script:tidy.sh',
      '--button',
      'Log=shortcut:Log It',
      '--button',
      'Ack=cb:{"ticket":42}',
      '--button',
      'Ping=cb:',
      '--button',
      'Answer=reply:Type here',
      '--button',
      'Why=reply:',
      '--button',
      'Later',
    ),
    'POST',
    '/v1/notify',
    {
      body: {
        app: 'demo',
        title: 'T',
        buttons: [
          { label: 'Open', url: 'https://example.com/?a=b' },
          { label: 'Build', command: 'make all' },
          { label: 'Tidy', script: 'tidy.sh' },
          { label: 'Log', shortcut: 'Log It' },
          { label: 'Ack', callback: { payload: { ticket: 42 } } },
          { label: 'Ping', callback: {} },
          { label: 'Answer', reply: { placeholder: 'Type here' } },
          { label: 'Why', reply: {} },
          { label: 'Later' },
        ],
      },
    },
  ),
  row(notifyDemo('--reminder', 'Pay | rent|2026-12-01T09:00:00Z'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', reminder: { title: 'Pay | rent', due: '2026-12-01T09:00:00Z' } },
  }),
  row(notifyDemo('--reminder', 'Just a title'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', reminder: { title: 'Just a title' } },
  }),
  row(notifyDemo('--follow-up-after', '10m', '--follow-up-shortcut', 'Escalate', '--follow-up-input', '{title}'), 'POST', '/v1/notify', {
    body: {
      app: 'demo',
      title: 'T',
      followUp: { after: 600, action: { label: 'Escalate', kind: 'shortcut', shortcut: 'Escalate', input: '{title}' } },
    },
  }),
  row(notifyDemo('--follow-up-after', '90', '--follow-up-command', 'echo hi'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', followUp: { after: 90, action: { label: 'Follow-up', kind: 'command', command: 'echo hi' } } },
  }),
  row(notifyDemo('--follow-up-after', '2h', '--follow-up-script', 'tidy.sh'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', followUp: { after: 7200, action: { label: 'tidy.sh', kind: 'script', script: 'tidy.sh' } } },
  }),
  row(notifyDemo('--button', 'Ack=cb:', '--follow-up-after', '5', '--follow-up-ref', 'ack'), 'POST', '/v1/notify', {
    body: { app: 'demo', title: 'T', buttons: [{ label: 'Ack', callback: {} }], followUp: { after: 5, actionRef: 'ack' } },
  }),
  row(['notify', '--json', 'body.json', '--title', 'Flag wins', '--metadata', '{"b":2}'], 'POST', '/v1/notify', {
    body: { app: 'from-json', title: 'Flag wins', metadata: { a: 1, b: 2 }, defaults: { sound: 'Glass' } },
  }),
  row(['notify', '--app=demo', '--title=Equals form'], 'POST', '/v1/notify', { body: { app: 'demo', title: 'Equals form' } }),
  row(['--json', 'body.json', 'notify'], 'POST', '/v1/notify', {
    body: { app: 'from-json', title: 'From JSON', metadata: { a: 1 }, defaults: { sound: 'Glass' } },
  }),

  // register
  row(
    [
      'register',
      '--app',
      'demo',
      '--name',
      'Demo',
      '--icon',
      'icon.png',
      '--bundle-id',
      'com.example.demo',
      '--callback-url',
      'http://127.0.0.1:9/cb',
      '--allow-commands',
      '--sound',
      'Glass',
      '--timeout',
      '8',
      '--persistent',
      '--corner',
      'bottomLeft',
    ],
    'POST',
    '/v1/register',
    {
      body: {
        app: 'demo',
        appName: 'Demo',
        icon: resolved('icon.png'),
        bundleId: 'com.example.demo',
        callbackURL: 'http://127.0.0.1:9/cb',
        allowCommands: true,
        defaults: { sound: 'Glass', timeout: 8, persistent: true, corner: 'bottomLeft' },
      },
    },
  ),
  row(['register', '--app', 'demo', '--no-allow-commands', '--no-persistent'], 'POST', '/v1/register', {
    body: { app: 'demo', allowCommands: false, defaults: { persistent: false } },
  }),
  row(['register', '--json', 'body.json', '--timeout', '3'], 'POST', '/v1/register', {
    body: { app: 'from-json', title: 'From JSON', metadata: { a: 1 }, defaults: { sound: 'Glass', timeout: 3 } },
  }),

  // banners and speech
  row(['speak', '--app', 'demo', 'Hello', 'there'], 'POST', '/v1/speak', { body: { app: 'demo', text: 'Hello there' } }),
  row(
    ['speak', '--app', 'demo', '--text', 'Hi', '--id', 's1', '--voice', 'af_bella', '--speed', '0.5', '--lang', 'fr'],
    'POST',
    '/v1/speak',
    {
      body: { app: 'demo', text: 'Hi', id: 's1', voice: 'af_bella', speed: 0.5, lang: 'fr' },
    },
  ),
  row(['compose'], 'POST', '/v1/compose'),
  row(['snooze', '--app', 'demo', '--id', 'n1', '--minutes', '0.5'], 'POST', '/v1/snooze', {
    body: { app: 'demo', id: 'n1', minutes: 0.5 },
  }),
  row(['snooze', '--app', 'demo', '--id', 'n1', '--minutes', '43200'], 'POST', '/v1/snooze', {
    body: { app: 'demo', id: 'n1', minutes: 43200 },
  }),
  row(['unsnooze', '--app', 'demo', '--id', 'n1'], 'POST', '/v1/unsnooze', { body: { app: 'demo', id: 'n1' } }),
  row(['dismiss', '--app', 'demo', '--id', 'n1'], 'POST', '/v1/dismiss', { body: { app: 'demo', id: 'n1' } }),
  row(['dismiss-all'], 'POST', '/v1/dismissAll', { body: {} }),
  row(['dismiss-all', '--app', 'demo', '--group', 'g'], 'POST', '/v1/dismissAll', { body: { app: 'demo', group: 'g' } }),
  row(['dismissAll', '--app', 'demo'], 'POST', '/v1/dismissAll', { body: { app: 'demo' } }),
  row(['stacks'], 'GET', '/v1/stacks'),
  row(['stacks', '--app', 'demo'], 'GET', '/v1/stacks', { query: { app: 'demo' } }),

  // the cloud relay
  row(['relay', 'status'], 'GET', '/v1/relay/status'),
  row(['relay', 'pair', 'https://relay.example.org'], 'POST', '/v1/relay/pair', { body: { relayURL: 'https://relay.example.org' } }),
  row(['relay', 'pair', 'https://relay.example.org', '--pairing-secret', 's3cret'], 'POST', '/v1/relay/pair', {
    body: { relayURL: 'https://relay.example.org', pairingSecret: 's3cret' },
  }),
  row(['relay', 'unpair'], 'POST', '/v1/relay/unpair', { body: {} }),
  row(['relay', 'unpair', '--force'], 'POST', '/v1/relay/unpair', { body: { force: true } }),
  row(['relay', 'keys'], 'GET', '/v1/relay/keys'),
  row(['relay', 'keys', 'list'], 'GET', '/v1/relay/keys'),
  row(['relay', 'keys', 'create', 'build-bot'], 'POST', '/v1/relay/keys', { body: { name: 'build-bot' } }),
  row(['relay', 'keys', 'create', 'build-bot', '--client', 'codex'], 'POST', '/v1/relay/keys', {
    body: { name: 'build-bot', client: 'codex' },
  }),
  row(['relay', 'keys', 'revoke', '0a1b2c3d'], 'DELETE', '/v1/relay/keys/0a1b2c3d'),
  row(['relay', 'connectors'], 'GET', '/v1/relay/connectors'),
  row(['keys'], 'GET', '/v1/keys'),
  row(['keys', 'list'], 'GET', '/v1/keys'),
  row(['keys', 'create', '--app', 'backup'], 'POST', '/v1/keys', { body: { app: 'backup' } }),
  row(['keys', 'create', '--app', 'backup', '--name', 'NAS'], 'POST', '/v1/keys', { body: { app: 'backup', name: 'NAS' } }),
  row(['keys', 'revoke', 'key-0a1b2c3d'], 'DELETE', '/v1/keys/key-0a1b2c3d'),
  row(['scheduled'], 'GET', '/v1/scheduled'),
  row(['scheduled', 'list'], 'GET', '/v1/scheduled'),
  row(['scheduled', 'cancel', '--app', 'backup', '--id', 'nightly'], 'DELETE', '/v1/scheduled', {
    query: { app: 'backup', id: 'nightly' },
  }),
  row(['relay', 'usage'], 'GET', '/v1/relay/usage'),
  row(['relay', 'events'], 'GET', '/v1/relay/events'),
  row(['relay', 'events', 'list'], 'GET', '/v1/relay/events'),
  row(['relay', 'events', 'end', 'sub_0123456789abcdef0123'], 'DELETE', '/v1/relay/events/subscriptions/sub_0123456789abcdef0123'),
  row(['relay', 'instructions', 'claude'], 'GET', '/v1/relay/instructions', { query: { client: 'claude' } }),

  // quiet hours and settings
  row(['quiet', '--until', '07:30'], 'PUT', '/v1/settings/quiet-hours', { body: { adHoc: { until: '07:30' } } }),
  row(['quiet', '--for', '45', '--banners'], 'PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 45, banners: true } } }),
  row(['quiet', 'status'], 'GET', '/v1/settings/quiet-hours'),
  row(['quiet', 'off'], 'PUT', '/v1/settings/quiet-hours', { body: { resume: true } }),
  row(['settings'], 'GET', '/v1/settings'),
  row(['settings', 'get'], 'GET', '/v1/settings'),
  row(
    ['settings', 'set', 'muteAllSounds=true', 'historyCapPerApp=500', 'voiceSystem=null', 'voiceDefault=af_heart', 'voiceLang="12"'],
    'PUT',
    '/v1/settings',
    {
      body: { muteAllSounds: true, historyCapPerApp: 500, voiceSystem: null, voiceDefault: 'af_heart', voiceLang: '12' },
    },
  ),

  // history
  row(['history', '--app', 'demo'], 'GET', '/v1/history', { query: { app: 'demo' } }),
  row(['history', '--app', 'demo', '--limit', '5'], 'GET', '/v1/history', { query: { app: 'demo', limit: '5' } }),
  row(['history', '--app', 'demo', '--clear'], 'DELETE', '/v1/history', { query: { app: 'demo' } }),
  row(['history', 'search', 'build', 'failed', '--app', 'demo', '--limit', '3'], 'GET', '/v1/history/search', {
    query: { q: 'build failed', app: 'demo', limit: '3' },
  }),
  row(['history', 'search'], 'GET', '/v1/history/search'),
  row(['history', 'reshow', '--app', 'demo', '--id', 'n1'], 'POST', '/v1/history/reshow', { body: { app: 'demo', id: 'n1' } }),
  row(['history', 'delete', '--app', 'demo', '--id', 'n1'], 'DELETE', '/v1/history/item', { query: { app: 'demo', id: 'n1' } }),
  row(['history', 'export', '--app', 'demo'], 'GET', '/v1/history/export', { query: { app: 'demo' } }),

  // templates and manifests
  row(['template', 'list'], 'GET', '/v1/templates'),
  row(['template', 'list', '--app', 'demo'], 'GET', '/v1/templates', { query: { app: 'demo' } }),
  row(['template', 'put', 'template.json'], 'PUT', '/v1/templates', { body: { app: 'demo', name: 'card', title: '{title}' } }),
  row(['template', 'delete', '--app', 'demo', '--name', 'card'], 'DELETE', '/v1/templates', { query: { app: 'demo', name: 'card' } }),
  row(['template', 'duplicate', '--app', 'demo', '--name', 'card'], 'POST', '/v1/templates/duplicate', {
    body: { app: 'demo', name: 'card' },
  }),
  row(
    ['template', 'duplicate', '--app', 'demo', '--name', 'card', '--new-name', 'copy', '--to-app', 'other'],
    'POST',
    '/v1/templates/duplicate',
    {
      body: { app: 'demo', name: 'card', newName: 'copy', toApp: 'other' },
    },
  ),
  row(['template', 'rename', '--app', 'demo', '--name', 'card', '--new-name', 'tile'], 'POST', '/v1/templates/rename', {
    body: { app: 'demo', name: 'card', newName: 'tile' },
  }),
  row(['template', 'default', '--app', 'demo', '--name', 'card'], 'PUT', '/v1/templates/default', { body: { app: 'demo', name: 'card' } }),
  row(['template', 'default', '--app', 'demo', '--clear'], 'PUT', '/v1/templates/default', { body: { app: 'demo' } }),
  row(
    [
      'template',
      'follow-up',
      '--app',
      'demo',
      '--name',
      'card',
      '--after',
      '2h',
      '--shortcut',
      'Escalate',
      '--input',
      '{title}',
      '--label',
      'Escalate it',
    ],
    'PUT',
    '/v1/templates/follow-up',
    { body: { app: 'demo', template: 'card', after: 7200, shortcut: 'Escalate', input: '{title}', label: 'Escalate it' } },
  ),
  row(['template', 'follow-up', '--app', 'demo', '--after', '60', '--action-ref', 'open'], 'PUT', '/v1/templates/follow-up', {
    body: { app: 'demo', after: 60, actionRef: 'open' },
  }),
  row(['template', 'follow-up', '--app', 'demo', '--name', 'card', '--off'], 'PUT', '/v1/templates/follow-up', {
    body: { app: 'demo', template: 'card', enabled: false },
  }),
  row(['template', 'import', 'card.notifiertemplate'], 'POST', '/v1/templates/import', {
    body: { base64: BUNDLE_BYTES.toString('base64'), onConflict: 'keepBoth' },
  }),
  row(['template', 'import', '--file', 'card.notifiertemplate', '--app', 'other', '--replace'], 'POST', '/v1/templates/import', {
    body: { base64: BUNDLE_BYTES.toString('base64'), app: 'other', onConflict: 'replace' },
  }),
  row(['template', 'import', 'card.notifiertemplate', '--fail'], 'POST', '/v1/templates/import', {
    body: { base64: BUNDLE_BYTES.toString('base64'), onConflict: 'fail' },
  }),
  row(['manifest', 'delete', '--app', 'demo'], 'DELETE', '/v1/manifest', { query: { app: 'demo' } }),

  // assets
  row(['assets', 'list', '--app', 'demo'], 'GET', '/v1/assets', { query: { app: 'demo' } }),
  row(['assets', 'add', 'pulse.riv', '--app', 'demo'], 'POST', '/v1/assets', { body: { app: 'demo', path: resolved('pulse.riv') } }),
  row(['assets', 'add', '/tmp/logo', '--app', 'demo', '--name', 'logo', '--kind', 'image'], 'POST', '/v1/assets', {
    body: { app: 'demo', path: '/tmp/logo', name: 'logo', kind: 'image' },
  }),
  row(['assets', 'rm', 'pulse.riv', '--app', 'demo'], 'DELETE', '/v1/assets', { query: { app: 'demo', file: 'pulse.riv' } }),

  // apps and approvals
  row(['apps'], 'GET', '/v1/apps'),
  row(['apps', 'settings'], 'GET', '/v1/apps/settings'),
  row(['apps', 'settings', '--app', 'demo'], 'GET', '/v1/apps/settings', { query: { app: 'demo' } }),
  row(['apps', 'set', '--app', 'demo', 'muteBanners=true', 'timeout=10', 'corner=null', 'sound=Glass'], 'PUT', '/v1/apps/settings', {
    body: { app: 'demo', muteBanners: true, timeout: 10, corner: null, sound: 'Glass' },
  }),
  row(['apps', 'delete', '--app', 'my app/1'], 'DELETE', '/v1/apps/my%20app%2F1'),
  row(['approvals'], 'GET', '/v1/actions/approvals'),
  row(['approvals', 'revoke', '--app', 'demo', '--template', 'card'], 'DELETE', '/v1/actions/approvals', {
    query: { app: 'demo', template: 'card' },
  }),

  // lookups, voice, agent server, health
  row(['symbols', 'arrow', 'up', '--category', 'arrows', '--limit', '10', '--offset', '20'], 'GET', '/v1/symbols', {
    query: { q: 'arrow up', category: 'arrows', limit: '10', offset: '20' },
  }),
  row(['symbols', '--q', 'bell'], 'GET', '/v1/symbols', { query: { q: 'bell' } }),
  row(['voice'], 'GET', '/v1/voice'),
  row(['voice', 'status'], 'GET', '/v1/voice'),
  row(['voice', 'install'], 'POST', '/v1/voice/install', { body: { action: 'install' } }),
  row(['voice', 'cancel'], 'POST', '/v1/voice/install', { body: { action: 'cancel' } }),
  row(['voice', 'use-existing'], 'POST', '/v1/voice/install', { body: { action: 'useExisting' } }),
  row(['mcp'], 'GET', '/v1/mcp'),
  row(['mcp', 'status'], 'GET', '/v1/mcp'),
  row(['mcp', 'install', 'claudeCode'], 'POST', '/v1/mcp/install', { body: { client: 'claudeCode' } }),
  row(['mcp', 'install', 'generic', '--name', 'Helper', '--icon', 'helper.png', '--reinstall'], 'POST', '/v1/mcp/install', {
    body: { client: 'generic', name: 'Helper', icon: resolved('helper.png'), reinstall: true },
  }),
  row(['health'], 'GET', '/v1/health'),
  row(['replies'], 'GET', '/v1/replies'),
  row(['replies', '--app', 'demo', '--since', '2026-11-20', '--consume'], 'GET', '/v1/replies', {
    query: { app: 'demo', since: '2026-11-20', consume: 'true' },
  }),
];

describe('each command sends its route', () => {
  test.each(PARITY)('notifier $words -> $method $path', async ({ argv, method, path: route, query, body }) => {
    const result = await runCli(argv);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ method, path: route, query: query ?? {} });
    expect(recorded[0]!.body).toEqual(body);
    expect(recorded[0]!.authorization).toBe(route === '/v1/health' ? undefined : `Bearer ${TOKEN}`);
  });

  test('the table covers every command of the tool', async () => {
    const help = await runCli(['--help']);
    const commands = [...help.stdout.matchAll(/^ {2}([a-z][\w-]*)(?:\|\w+)?\s/gm)].map((match) => match[1]);
    const covered = new Set(PARITY.map((each) => each.argv[0]));
    // `open` speaks to the private channel, not to the API (test/daemon/sign-in.test.ts).
    expect(commands.filter((name) => !['daemon', 'service', 'help', 'open'].includes(name!) && !covered.has(name!))).toEqual([]);
    expect(commands.length).toBeGreaterThan(20);
  });
});

describe('finding the service and the token', () => {
  test('--port and --token work before and after the command, and in --opt=value form', async () => {
    const elsewhere = await tempFolder('notifier-cli-empty-');
    try {
      const env = { NOTIFIER_SUPPORT_DIR: elsewhere };
      for (const argv of [
        ['--port', String(port), '--token', 'before', 'apps'],
        ['apps', '--port', String(port), '--token', 'before'],
        ['apps', `--port=${port}`, '--token=before'],
        ['history', 'search', 'x', '--port', String(port), '--token', 'before'],
        ['history', '--port', String(port), '--token', 'before', 'search', 'x'],
      ]) {
        recorded = [];
        const result = await runCli(argv, { env });
        expect([argv, result.code, result.stderr]).toEqual([argv, 0, '']);
        expect(recorded.map((each) => each.authorization)).toEqual(['Bearer before']);
      }
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  test('the token file is read on every call', async () => {
    await writeFile(path.join(supportDir, 'token'), 'cd'.repeat(32));
    try {
      await runCli(['apps']);
      expect(recorded[0]!.authorization).toBe(`Bearer ${'cd'.repeat(32)}`);
    } finally {
      await writeFile(path.join(supportDir, 'token'), TOKEN);
    }
  });

  test('--json - reads the body from standard input; flags merge on top', async () => {
    const result = await runCli(['notify', '--json', '-', '--body', 'from a flag'], {
      stdin: JSON.stringify({ app: 'piped', title: 'Piped', template: 'x' }),
    });
    expect(result.code).toBe(0);
    expect(recorded[0]!.body).toEqual({ app: 'piped', title: 'Piped', template: 'x', body: 'from a flag' });
  });
});

describe('output', () => {
  test('the reply is printed as JSON with every object sorted by key, two-space indented', async () => {
    answers.set('GET /v1/apps', { status: 200, body: { zeta: 1, apps: [{ name: 'b', app: 'a', nested: { y: true, x: null } }] } });
    const result = await runCli(['apps']);
    expect(result.stdout).toBe(
      '{\n  "apps": [\n    {\n      "app": "a",\n      "name": "b",\n      "nested": {\n        "x": null,\n        "y": true\n      }\n    }\n  ],\n  "zeta": 1\n}\n',
    );
  });

  test('an error status: the reply on standard output, exit 1; a 401 adds the unauthorized hint', async () => {
    answers.set('POST /v1/dismiss', { status: 400, body: { error: 'missing field: id' } });
    const failed = await runCli(['dismiss', '--app', 'demo', '--id', 'x']);
    expect([failed.code, JSON.parse(failed.stdout), failed.stderr]).toEqual([1, { error: 'missing field: id' }, '']);

    answers.set('GET /v1/apps', { status: 401, body: { error: 'unauthorized' } });
    const refused = await runCli(['apps']);
    expect([refused.code, JSON.parse(refused.stdout)]).toEqual([1, { error: 'unauthorized' }]);
    expect(refused.stderr).toBe('notifier: unauthorized (check the token file or --token)\n');
  });

  test('a connection closed without an answer counts as no service: exit 2', async () => {
    answers.set('GET /v1/apps', { status: 0, body: null });
    const result = await runCli(['apps']);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toBe(
      `Notifier is not running: nothing answered on 127.0.0.1:${port} (socket hang up). Start it with 'npm start' or 'notifier daemon'.\n`,
    );
  });

  test('a wait longer than the API allows is several waits of at most 300 s; the state printed counts them all', async () => {
    answers.set('GET /v1/replies/wait', { status: 200, body: { replied: false, timedOut: true, waitedSeconds: 300 } });
    const replies = await runCli(['replies', '--wait', 'q1', '--app', 'demo', '--timeout', '10m']);
    expect([replies.code, JSON.parse(replies.stdout), replies.stderr]).toEqual([
      3,
      { replied: false, timedOut: true, waitedSeconds: 600 },
      '',
    ]);
    expect(recorded.map((each) => each.query)).toEqual([
      { id: 'q1', app: 'demo', timeout: '300' },
      { id: 'q1', app: 'demo', timeout: '300' },
    ]);

    recorded = [];
    answers.set('POST /v1/notify', { status: 200, body: { ok: true, id: 'n9' } });
    const notify = await runCli(['notify', '--app', 'demo', '--title', 'Deploy?', '--button', 'Yes', '--wait', '400']);
    expect([notify.code, JSON.parse(notify.stdout)]).toEqual([
      3,
      { id: 'n9', app: 'demo', answered: false, timedOut: true, waitedSeconds: 400 },
    ]);
    expect(recorded.map((each) => `${each.method} ${each.path} ${new URLSearchParams(each.query).toString()}`)).toEqual([
      'POST /v1/notify ',
      'GET /v1/replies/wait id=n9&app=demo&timeout=300&ended=true',
      'GET /v1/replies/wait id=n9&app=demo&timeout=100&ended=true',
    ]);
    expect(recorded[0]!.body).toEqual({ app: 'demo', title: 'Deploy?', buttons: [{ label: 'Yes' }] });
  });

  test('--wait takes 1 second to a day; --timeout and --consume go with their own mode of replies', async () => {
    for (const argv of [
      notifyDemo('--wait', '0'),
      notifyDemo('--wait', '2d'),
      ['replies', '--timeout', '5'],
      ['replies', '--wait', 'q1', '--consume'],
    ]) {
      const result = await runCli(argv);
      expect([argv, result.code, result.stdout]).toEqual([argv, 1, '']);
      expect(result.stderr).toMatch(/^notifier: .*\nRun 'notifier help (notify|replies)' for usage\.\n$/);
    }
    expect(recorded).toEqual([]);
  });

  test('history export --out writes the records to the file and prints one line', async () => {
    const items = [
      { id: 'b', app: 'demo' },
      { id: 'a', app: 'demo' },
    ];
    answers.set('GET /v1/history/export', { status: 200, body: { count: 2, items } });
    const result = await runCli(['history', 'export', '--app', 'demo', '-o', 'out.json']);
    const file = path.join(workDir, 'out.json');
    expect([result.code, result.stdout, result.stderr]).toEqual([0, `Wrote ${file} (2 records)\n`, '']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(items);
    expect(recorded[0]).toMatchObject({ method: 'GET', path: '/v1/history/export', query: { app: 'demo' } });
  });

  test('template export writes the bundle the service packed, prints one line, and its warnings on standard error', async () => {
    answers.set('GET /v1/templates/export', {
      status: 200,
      body: {
        ok: true,
        app: 'demo',
        name: 'card',
        file: 'card.notifiertemplate',
        bytes: 9,
        assets: ['pulse.riv'],
        warnings: ['the script tidy.sh is not in the bundle'],
        base64: BUNDLE_BYTES.toString('base64'),
      },
    });
    const byDefault = await runCli(['template', 'export', '--app', 'demo', '--name', 'card']);
    const file = path.join(workDir, 'card.notifiertemplate');
    expect([byDefault.code, byDefault.stdout]).toEqual([0, `Wrote ${file} (1 animation file)\n`]);
    expect(byDefault.stderr).toBe('notifier: warning: the script tidy.sh is not in the bundle\n');
    expect(await readFile(file)).toEqual(BUNDLE_BYTES);
    expect(recorded[0]).toMatchObject({ method: 'GET', path: '/v1/templates/export', query: { app: 'demo', name: 'card' } });

    const named = await runCli(['template', 'export', '--app', 'demo', '--name', 'card', '--out', 'named.notifiertemplate']);
    expect(named.stdout).toBe(`Wrote ${path.join(workDir, 'named.notifiertemplate')} (1 animation file)\n`);
  });

  test('a file-writing command whose request fails prints the reply and writes nothing', async () => {
    answers.set('GET /v1/templates/export', { status: 404, body: { error: 'template not found' } });
    const result = await runCli(['template', 'export', '--app', 'demo', '--name', 'gone', '-o', 'gone.notifiertemplate']);
    expect([result.code, JSON.parse(result.stdout)]).toEqual([1, { error: 'template not found' }]);
    await expect(readFile(path.join(workDir, 'gone.notifiertemplate'))).rejects.toThrow();
  });
});

interface Mistake {
  words: string;
  argv: string[];
  message: string | RegExp;
  hint: string;
}

const mistake = (argv: string[], message: string | RegExp, hint = argv.filter((word) => !word.startsWith('-'))[0]!): Mistake => ({
  words: argv.join(' '),
  argv,
  message,
  hint,
});

const MISTAKES: Mistake[] = [
  mistake(['notify', '--title', 'T'], '--app is required'),
  mistake(['notify', '--app', 'demo'], /--title is required/),
  mistake(['notify', '--app', 'demo', '--title'], "option '--title <text>' argument missing"),
  mistake(notifyDemo('--bogus'), "unknown option '--bogus'"),
  mistake(notifyDemo('--timeout', 'soon'), /option '--timeout <seconds>' argument 'soon' is invalid/),
  mistake(notifyDemo('--priority', 'bogus'), /argument 'bogus' is invalid. Allowed choices are low, normal, high, urgent/),
  mistake(notifyDemo('--layout', 'diagonal'), /argument 'diagonal' is invalid/),
  mistake(notifyDemo('--max-body-lines', '0'), /'--max-body-lines <n>' argument '0' is invalid/),
  mistake(notifyDemo('--speed', '3'), /'--speed <n>' argument '3' is invalid/),
  mistake(notifyDemo('--accent', 'blue'), '--accent must be a hex colour such as #1E90FF, not blue'),
  mistake(notifyDemo('--metadata', '[1]'), /'--metadata <json>' argument '\[1\]' is invalid/),
  mistake(notifyDemo('--button', 'Later='), /argument 'Later=' is invalid. nothing after =/),
  mistake(notifyDemo('--button', 'Ack=cb:{nope'), /the cb: payload is not JSON/),
  mistake(notifyDemo('--button', 'Go=somewhere'), /the target is a link/),
  mistake(notifyDemo('--follow-up-after', '4'), /'--follow-up-after <duration>' argument '4' is invalid/),
  mistake(notifyDemo('--follow-up-after', '8d', '--follow-up-command', 'x'), /argument '8d' is invalid/),
  mistake(notifyDemo('--follow-up-after', '10m'), /--follow-up-after needs an action/),
  mistake(notifyDemo('--follow-up-shortcut', 'S'), '--follow-up-shortcut needs --follow-up-after (seconds, or 90s, 10m, 2h)'),
  mistake(
    notifyDemo('--follow-up-after', '60', '--follow-up-shortcut', 'S', '--follow-up-command', 'c'),
    'give one follow-up action, not --follow-up-shortcut and --follow-up-command',
  ),
  mistake(notifyDemo('--follow-up-after', '60', '--follow-up-command', 'c', '--follow-up-input', 'i'), /--follow-up-input goes with/),
  mistake(notifyDemo('--json', 'missing.json'), 'cannot read missing.json: no such file'),
  mistake(['register', '--name', 'Demo'], '--app is required'),
  mistake(['register', '--app', 'demo', '--corner', 'middle'], /Allowed choices are topRight/),
  mistake(['speak', '--app', 'demo'], 'give the text to say: --text TEXT or words'),
  mistake(['snooze', '--app', 'demo', '--id', 'n1'], "required option '--minutes <n>' not specified"),
  mistake(
    ['snooze', '--app', 'demo', '--id', 'n1', '--minutes', '0'],
    /'--minutes <n>' argument '0' is invalid. minutes greater than 0 and at most 43200/,
  ),
  mistake(['snooze', '--app', 'demo', '--id', 'n1', '--minutes', '43201'], /argument '43201' is invalid/),
  mistake(['dismiss', '--app', 'demo'], "required option '--id <id>' not specified"),
  mistake(['dismiss-all', '--group', 'g'], '--group needs --app: a stack belongs to one app'),
  mistake(['compose', '--title', 'x'], "unknown option '--title'"),
  mistake(['compose', 'extra'], /too many arguments for 'compose'/),
  mistake(['quiet'], /give exactly one of --until HH:MM and --for MINUTES/),
  mistake(['quiet', '--until', '7pm'], /'--until <HH:MM>' argument '7pm' is invalid/),
  mistake(['quiet', '--until', '07:00', '--for', '30'], /give exactly one of --until/),
  mistake(['history'], '--app is required'),
  mistake(['history', '--app', 'demo', '--clear', '--limit', '3'], /takes no --limit/),
  mistake(['history', 'reshow', '--app', 'demo'], "required option '--id <id>' not specified", 'history reshow'),
  mistake(['template', 'default', '--app', 'demo'], 'give exactly one of --name NAME and --clear', 'template default'),
  mistake(
    ['template', 'default', '--app', 'demo', '--name', 'a', '--clear'],
    'give exactly one of --name NAME and --clear',
    'template default',
  ),
  mistake(['template', 'follow-up', '--app', 'demo', '--off', '--after', '60'], /--off stands alone/, 'template follow-up'),
  mistake(
    ['template', 'follow-up', '--app', 'demo', '--after', '60'],
    '--after needs an action: one of --shortcut, --script, --command or --action-ref',
    'template follow-up',
  ),
  mistake(['template', 'import'], 'give the bundle file: FILE or --file FILE', 'template import'),
  mistake(
    ['template', 'import', 'card.notifiertemplate', '--replace', '--fail'],
    /give at most one of --keep-both, --replace and --fail/,
    'template import',
  ),
  mistake(['template', 'bogus'], "unknown command 'bogus'", 'template'),
  mistake(['settings', 'set', 'muteAllSounds'], "'muteAllSounds' is not KEY=VALUE", 'settings set'),
  mistake(['settings', 'set'], "missing required argument 'KEY=VALUE'", 'settings set'),
  mistake(['apps', 'set', '--app', 'demo', 'timeout=5', 'oops'], "'oops' is not KEY=VALUE", 'apps set'),
  mistake(['mcp', 'install', 'emacs'], /value 'emacs' is invalid for argument 'client'. Allowed choices are claudeCode/, 'mcp install'),
  mistake(['health', '--json', 'body.json'], '--json is only for notify and register'),
  mistake(['--port', '0', 'health'], /'--port <n>' argument '0' is invalid. a port number from 1 to 65535/, ''),
  mistake(['health', '--port', '70000'], /argument '70000' is invalid/),
  mistake(['bogus'], "unknown command 'bogus'", ''),
  mistake(['help', 'bogus'], "unknown command 'bogus'", ''),
  mistake(['help', 'history', 'bogus'], "unknown command 'bogus'", 'history'),
];

describe('a wrong command line exits 1 with `notifier: <message>` and a usage hint, and sends nothing', () => {
  test.each(MISTAKES)('notifier $words', async ({ argv, message, hint }) => {
    const result = await runCli(argv);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const first = result.stderr.split('\n')[0]!;
    if (typeof message === 'string') expect(first).toBe(`notifier: ${message}`);
    else expect(first).toMatch(new RegExp(`^notifier: .*${message.source}`));
    // commander may add a suggestion line ("Did you mean ...?") before the hint
    expect(result.stderr.endsWith(`\n${hint ? `Run 'notifier help ${hint}' for usage.` : "Run 'notifier --help' for usage."}\n`)).toBe(
      true,
    );
    expect(recorded).toEqual([]);
  });
});
