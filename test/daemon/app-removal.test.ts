import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ROOT, tempFolder } from '../helpers/daemon.js';
import { eventually, type Running, startInProcess } from '../helpers/in-process.js';
import { FakeEngine, wav } from '../helpers/speech.js';
import { filesUnder, IMAGES, writeSupportFile } from '../helpers/support.js';

// DELETE /v1/apps/{id} (docs/api/apps.md#a7): the app's banners close and nothing of it is left in the support
// folder — not its History, replies, templates, manifest, assets, pictures, speech, approvals or registration.
// Another app's things stay, a recording both apps sent included.

const GONE = 'removal.target';
const KEPT = 'removal.keeper';
const RIVE_FIXTURE = path.join(ROOT, 'fixtures', 'rive', 'pulse.riv');

let n: Running;
let supportDir: string;
const engine = new FakeEngine();
const recording = `data:audio/wav;base64,${wav(0.2).toString('base64')}`;

/**
 * Every file of the support folder with the bytes it holds. A durable write's temporary file (`.<name>.<pid>.<n>.tmp`,
 * renamed over its file a moment later) is not one of them: it may be gone before it is read.
 */
async function contents(): Promise<Map<string, Buffer>> {
  const files = (await filesUnder(supportDir)).filter((file) => file !== 'control.sock' && !/(^|\/)\.[^/]+\.tmp$/.test(file));
  return new Map(await Promise.all(files.map(async (file) => [file, await readFile(path.join(supportDir, file))] as const)));
}

beforeAll(async () => {
  supportDir = await tempFolder('notifier-app-removal-');
  await writeSupportFile(supportDir, 'settings.json', { bannerCardImage: true });
  await writeSupportFile(supportDir, 'approvals.json', {
    commands: { [GONE]: { approvedAt: '2026-11-01T10:00:00.000Z' } },
    callbackHosts: { [GONE]: { 'hooks.example.com': { approvedAt: '2026-11-01T10:00:00.000Z' } } },
    templates: { [GONE]: { card: { commands: ['command: true'], approvedAt: '2026-11-01T10:00:00.000Z' } } },
  });
  n = await startInProcess({ supportDir, speech: engine });
});
afterAll(() => n.stop());

describe('DELETE /v1/apps/{id}', () => {
  test('an app with everything: afterwards no file of it is left, and the other app keeps all of its own', async () => {
    const ok = async (method: string, route: string, body: Record<string, unknown>) => {
      const reply = await n.api(method, route, { body });
      expect({ route, status: reply.status, json: reply.json }).toMatchObject({ status: 200 });
      return reply.json;
    };
    // Pictures are stored once by their bytes: each app sends its own, so the removed app's must go.
    for (const [app, picture] of [
      [GONE, 'sample.jpg'],
      [KEPT, 'sample.webp'],
    ] as const) {
      await ok('POST', '/v1/register', { app, appName: `App ${app}`, allowCommands: true, callbackURL: 'https://hooks.example.com/in' });
      await ok('PUT', '/v1/manifest', { app, fields: [{ key: 'count', type: 'number' }] });
      await ok('PUT', '/v1/templates', { app, name: 'card', title: '{title} ({count})' });
      await ok('POST', '/v1/assets', { app, path: RIVE_FIXTURE });
      await ok('POST', '/v1/assets', { app, path: path.join(IMAGES, 'sample.png') });
      await ok('POST', '/v1/notify', {
        app,
        id: 'pic',
        title: 'With a picture',
        template: 'card',
        count: 2,
        image: path.join(IMAGES, picture),
      });
      await ok('POST', '/v1/notify', { app, id: 'ask', title: 'Question', buttons: [{ label: 'Answer', reply: { placeholder: 'Say' } }] });
      await ok('POST', '/v1/notify', { app, id: 'said', title: 'Spoken words', speak: true, audio: recording });
      await ok('POST', '/v1/notify', { app, id: 'later', title: 'Snoozed' });
      await ok('POST', '/v1/snooze', { app, id: 'later', minutes: 60 });
      n.person.reply(app, 'ask', 'answer', `an answer from ${app}`);
    }
    await eventually(async () => (await n.record(GONE, 'said')).speech?.audioPath, 'the speech to be written');
    await eventually(async () => (await n.record(KEPT, 'said')).speech?.audioPath, 'the speech to be written');
    await eventually(async () => (await n.api('GET', `/v1/replies?app=${GONE}&consume=false`)).json.replies.length === 1, 'the reply');
    const gone = {
      picture: (await n.record(GONE, 'pic')).imagePath as string,
      speech: (await n.record(GONE, 'said')).speech.audioPath as string,
      card: n.person.banner(GONE, 'pic')!.card!,
    };
    expect(gone.card).toContain(`${path.sep}cards${path.sep}`);
    const before = await contents();
    const goneFiles = new Set(Object.values(gone).map((file) => path.relative(supportDir, file)));
    const keeperFiles = [...before.keys()].filter((file) => !file.includes(GONE) && !goneFiles.has(file));

    const reply = await n.api('DELETE', `/v1/apps/${encodeURIComponent(GONE)}`);
    expect(reply).toMatchObject({ status: 200, json: { ok: true, deleted: GONE } });

    // Its banners are closed; the other app's stay.
    expect(n.person.banner(GONE, 'pic')).toBeUndefined();
    expect(n.person.banner(GONE, 'ask')).toBeUndefined();
    expect(n.person.banner(KEPT, 'pic')).toBeDefined();
    // Nothing of it through the API.
    expect((await n.api('GET', `/v1/history?app=${GONE}`)).json.items).toEqual([]);
    expect((await n.api('GET', `/v1/replies?app=${GONE}&consume=false`)).json.replies).toEqual([]);
    expect((await n.api('GET', '/v1/apps')).json.apps.map((app: { app: string }) => app.app)).toEqual([KEPT]);
    expect((await n.api('GET', `/v1/templates?app=${GONE}`)).json.items).toEqual([]);
    expect((await n.api('GET', `/v1/manifest?app=${GONE}`)).status).toBe(404);
    expect(JSON.stringify((await n.api('GET', '/v1/actions/approvals')).json)).not.toContain(GONE);

    // Nothing of it on disk: no file named for it, no file that mentions it, none of its pictures or speech.
    const after = await contents();
    const left = [...after].filter(([file, bytes]) => file.includes(GONE) || bytes.includes(GONE)).map(([file]) => file);
    expect(left).toEqual([]);
    for (const file of [gone.picture, gone.speech, gone.card]) {
      expect({ file, exists: after.has(path.relative(supportDir, file)) }).toEqual({ file, exists: false });
    }
    // The other app's files are all still there, unchanged but for the shared ones that dropped the removed app.
    expect([...after.keys()]).toEqual(expect.arrayContaining(keeperFiles.filter((file) => !file.startsWith('history/journal'))));
    expect((await n.record(KEPT, 'said')).recordingPath).toBeDefined();
    expect(after.has(path.relative(supportDir, (await n.record(KEPT, 'said')).recordingPath))).toBe(true);
    expect((await n.api('GET', `/v1/replies?app=${KEPT}&consume=false`)).json.replies).toHaveLength(1);
  });

  test('the removal holds after a restart', async () => {
    await n.stop();
    n = await startInProcess({ supportDir, speech: engine });
    expect((await n.api('GET', `/v1/history?app=${GONE}`)).json.items).toEqual([]);
    expect((await n.api('GET', '/v1/apps')).json.apps.map((app: { app: string }) => app.app)).toEqual([KEPT]);
    expect((await n.api('GET', `/v1/history?app=${KEPT}`)).json.items).toHaveLength(4);
  });

  test('an unknown app is 404; an empty id or one with a slash is 400', async () => {
    expect(await n.api('DELETE', '/v1/apps/nobody')).toMatchObject({ status: 404, json: { error: 'unknown app: nobody' } });
    expect(await n.api('DELETE', '/v1/apps/a%2Fb')).toMatchObject({
      status: 400,
      json: { error: 'app id is required: DELETE /v1/apps/{id}' },
    });
    expect(await n.api('DELETE', '/v1/apps/a/b')).toMatchObject({ status: 400 });
    expect((await n.api('DELETE', '/v1/apps')).status).toBe(405);
    expect((await n.api('PUT', '/v1/apps/whatever')).status).toBe(405);
  });

  test('an app named like a route ("settings") can still be removed', async () => {
    await n.notify({ app: 'settings', id: 'x', title: 'Odd name' });
    expect(await n.api('DELETE', '/v1/apps/settings')).toMatchObject({ status: 200, json: { deleted: 'settings' } });
    expect((await n.api('GET', '/v1/apps/settings')).status).toBe(200);
  });
});
