#!/usr/bin/env node
// One notification's way through the daemon (docs/architecture.md, "One notification's way"), measured: a real
// daemon (the build in dist/, headless presenter) is started with the V8 inspector, and one POST /v1/notify is
// stepped through, statement by statement, from the route's handler to the presenter's show(). Every call from one
// of the project's files into another is listed; the files of the way (the handler, the four steps, the screen,
// the banner's drawing, the banners, the presenter) must each be called into once. Lookups on the way (an app's
// registration, a template, a setting) are listed too: they return to the step that asked.
//   node scripts/notify-path.mjs        (after `node scripts/setup.mjs --build-only`; exits 1 when a file of the way is entered twice)
// Not part of `npm test`: stepping depends on how V8 steps through async functions, which may change between Node
// versions; it is a measurement to run when the pipeline changes.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
/** The files of the way, in order. */
const WAY = [
  'daemon/http/routes/notifications.ts',
  'daemon/core/notifications/notifications.ts',
  'daemon/core/notifications/prepare.ts',
  'daemon/core/notifications/checks.ts',
  'daemon/core/notifications/delivery.ts',
  'daemon/core/notifications/record.ts',
  'daemon/core/notifications/present.ts',
  'daemon/core/notifications/screen.ts',
  'daemon/core/notifications/banner-drawing.ts',
  'daemon/core/notifications/banners.ts',
  'daemon/present/headless.ts',
];
const MAX_STEPS = 20_000;

const folder = mkdtempSync(path.join(os.tmpdir(), 'notifier-notify-path-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const daemon = spawn(
  process.execPath,
  [
    '--inspect=127.0.0.1:0',
    path.join(dist, 'cli', 'main.js'),
    'daemon',
    '--support-dir',
    folder,
    '--port',
    String(port),
    '--presenter',
    'headless',
  ],
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
const finish = (code) => {
  daemon.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
  process.exit(code);
};
process.on('uncaughtException', (error) => {
  console.error(`notify-path: ${error.message}`);
  finish(2);
});

// The inspector: one request at a time, events queued.
let stderr = '';
const address = await new Promise((resolve) =>
  daemon.stderr.on('data', (chunk) => {
    stderr += chunk;
    const found = /ws:\/\/\S+/.exec(stderr);
    if (found) resolve(found[0]);
  }),
);
const socket = new WebSocket(address);
await new Promise((resolve) => socket.once('open', resolve));
let nextId = 1;
const answers = new Map();
const scripts = new Map();
const pauses = [];
let pauseWaiter;
socket.on('message', (data) => {
  const message = JSON.parse(data);
  if (message.id) answers.get(message.id)?.(message.result);
  else if (message.method === 'Debugger.scriptParsed') scripts.set(message.params.scriptId, message.params.url);
  else if (message.method === 'Debugger.paused') {
    pauses.push(message.params);
    pauseWaiter?.();
  }
});
const send = (method, params = {}) =>
  new Promise((resolve) => {
    const id = nextId++;
    answers.set(id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });
const paused = () =>
  new Promise((resolve) => {
    const take = () => (pauses.length > 0 ? resolve(pauses.shift()) : (pauseWaiter = take));
    take();
  });
await send('Debugger.enable');

// The daemon up, and one notification sent before, so that the app is registered and every module loaded.
for (let started = Date.now(); ;) {
  const up = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
    (reply) => reply.ok,
    () => false,
  );
  if (up) break;
  if (Date.now() - started > 30_000) throw new Error('the daemon did not start');
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const token = readFileSync(path.join(folder, 'token'), 'utf8').trim();
const notify = () =>
  fetch(`http://127.0.0.1:${port}/v1/notify`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ app: 'notify-path', title: 'Build failed', body: 'main @ 1a2b3c', sound: 'none' }),
  }).then((reply) => reply.text());
await notify();

// Break in the handler, then step into every call of the project's code (packages and Node's own are skipped).
await send('Debugger.setBlackboxPatterns', { patterns: ['/node_modules/', '^node:'] });
const handler = path.join(dist, 'daemon', 'http', 'routes', 'notifications.js');
const line = readFileSync(handler, 'utf8')
  .split('\n')
  // The handler's one call into the core: whatever reads the body on the way (a sending key's sender, say).
  .findIndex((text) => text.includes('services.notifications.notify(readNotification('));
if (line < 0) throw new Error("the /v1/notify handler's line was not found");
await send('Debugger.setBreakpointByUrl', { lineNumber: line, url: `file://${handler}` });
const answered = notify();
const relative = (url) => path.relative(dist, fileURLToPath(url)).replace(/\.js$/, '.ts');
const steps = [];
for (let pause = await paused(); steps.length < MAX_STEPS; pause = await paused()) {
  const [top] = pause.callFrames;
  const url = scripts.get(top.location.scriptId) ?? top.url;
  if (!url.startsWith('file://')) {
    await send('Debugger.stepInto', { breakOnAsyncCall: true });
    continue;
  }
  steps.push({ file: relative(url), fn: top.functionName || '(anonymous)', depth: pause.callFrames.length });
  if (steps.at(-1).file === WAY.at(-1) && top.functionName === 'show') break;
  await send('Debugger.stepInto', { breakOnAsyncCall: true });
}
await send('Debugger.removeBreakpoint', {}).catch(() => {});
await send('Debugger.setBlackboxPatterns', { patterns: [] });
await send('Debugger.resume');
await send('Debugger.disable');
await answered;

// A call: the next step is in another file, on a deeper stack (a return, or the rest of a function after an await,
// runs on a shorter one).
const calls = [];
for (let i = 1; i < steps.length; i++) {
  const [before, step] = [steps[i - 1], steps[i]];
  if (step.file !== before.file && step.depth > before.depth) calls.push({ from: before.file, to: step.file, fn: step.fn });
}
const into = new Map();
for (const call of calls) into.set(call.to, (into.get(call.to) ?? 0) + 1);
console.log(
  `One POST /v1/notify, stepped from its handler to the presenter: ${steps.length} steps, ${calls.length} calls into ${into.size} files.\n`,
);
for (const call of calls) console.log(`${WAY.includes(call.to) ? '*' : ' '} ${call.from} -> ${call.to} ${call.fn}`);
const twice = WAY.filter((file) => (into.get(file) ?? 0) > 1);
const missing = WAY.slice(1).filter((file) => !into.has(file));
console.log(
  `\n* the files of the way: ${WAY.length}; entered more than once: ${twice.length === 0 ? 'none' : twice.map((file) => `${file} (${into.get(file)})`).join(', ')}`,
);
if (missing.length > 0) console.log(`not reached: ${missing.join(', ')}`);
const lookups = [...into].filter(([file, count]) => !WAY.includes(file) && count > 1);
console.log(`lookups called more than once: ${lookups.map(([file, count]) => `${path.basename(file)} ${count}`).join(', ') || 'none'}`);
finish(twice.length === 0 && missing.length === 0 ? 0 : 1);
