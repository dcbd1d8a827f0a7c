import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, test } from '@jest/globals';
import type { InstallPlan } from '../../daemon/core/voice/voice-setup.js';
import { eventually, type Running, startInProcess } from '../helpers/in-process.js';
import { FakeEngine } from '../helpers/speech.js';

// GET /v1/voice and POST /v1/voice/install (docs/api/voice.md#get-v1-voice, #post-v1-voice-install): the engine, its
// voices, and an installation whose progress is reported as it really goes. The installations here run real processes
// (small shell scripts standing in for the package manager, which a test must not run).

let n: Running | undefined;
afterEach(async () => {
  await n?.stop();
  n = undefined;
});

const install = (action: unknown) => n!.api('POST', '/v1/voice/install', { body: { action } });
const voice = async () => (await n!.api('GET', '/v1/voice')).json;
const script = (text: string): InstallPlan => ({ steps: [{ program: 'sh', args: ['-c', text] }] });

describe('GET /v1/voice', () => {
  // npm test installs espeak-ng (scripts/setup.mjs), so this computer has the real engine.
  test('with espeak-ng on this computer: the engine, installed, and its voices', async () => {
    expect(spawnSync('which', ['espeak-ng']).status).toBe(0);
    n = await startInProcess();
    const state = await voice();
    expect(state).toMatchObject({ engine: 'system', engineName: 'espeak-ng', installed: true, install: { state: 'idle', log: [] } });
    expect(state.voices).toEqual(expect.arrayContaining([{ id: 'en-us', name: expect.stringMatching(/English/), language: 'en-us' }]));
    expect(await install('install')).toMatchObject({ status: 409, json: { error: 'the voice engine is already installed' } });
  });

  test('an unknown action is 400 naming the three', async () => {
    n = await startInProcess({ speech: new FakeEngine() });
    for (const action of ['upgrade', undefined, 3]) {
      expect(await install(action)).toMatchObject({ status: 400, json: { error: 'action must be install, cancel or useExisting' } });
    }
  });
});

describe('POST /v1/voice/install without an engine', () => {
  test('install runs each step, reports the step and its output, then takes the engine into use', async () => {
    n = await startInProcess({ speech: null });
    const engine = new FakeEngine();
    let installed = false;
    n.daemon.core.voiceSetup.plan = () => ({
      steps: [
        { program: 'sh', args: ['-c', 'echo reading package lists; sleep 0.4'] },
        { program: 'sh', args: ['-c', 'echo unpacking espeak-ng; sleep 0.4'] },
      ],
    });
    n.daemon.core.voiceSetup.find = () => (installed ? engine : null);
    expect(await voice()).toMatchObject({ installed: false, voices: [], install: { state: 'idle' } });

    expect(await install('install')).toMatchObject({
      status: 200,
      json: { ok: true, action: 'install', next: 'Poll GET /v1/voice for progress.' },
    });
    expect(await install('install')).toMatchObject({ status: 409, json: { error: 'an installation is already running' } });
    const first = await voice();
    expect(first.install).toMatchObject({
      state: 'installing',
      stepNumber: 1,
      steps: 2,
      step: expect.stringContaining('reading package lists'),
    });
    const second = await eventually(async () => ((await voice()).install.stepNumber === 2 ? voice() : null), 'the second step');
    expect(second.install.log).toContain('reading package lists');
    installed = true;
    const done = await eventually(async () => ((await voice()).install.state === 'done' ? voice() : null), 'the installation to finish');
    expect(done).toMatchObject({
      installed: true,
      engineName: 'fake',
      install: { state: 'done', log: ['reading package lists', 'unpacking espeak-ng'] },
    });

    // Speech works from now on, without a restart.
    await n.notify({ app: 'voice', id: 'after', title: 'Now spoken', speak: true });
    expect((await n.record('voice', 'after')).speech.suppressed).toBeUndefined();
    await eventually(() => engine.asked.some((ask) => ask.text === 'Now spoken.'), 'the speech');
  });

  test('a step that fails says so; cancel stops a running installation', async () => {
    n = await startInProcess({ speech: null });
    n.daemon.core.voiceSetup.plan = () => script('echo E: Unable to locate package espeak-ng >&2; exit 100');
    await install('install');
    const failed = await eventually(async () => ((await voice()).install.state === 'failed' ? voice() : null), 'the failure');
    expect(failed.install).toMatchObject({ error: 'sh exit 100', log: ['E: Unable to locate package espeak-ng'] });
    expect(failed.installed).toBe(false);

    expect(await install('cancel')).toMatchObject({ status: 409, json: { error: 'no installation is running' } });
    n.daemon.core.voiceSetup.plan = () => script('echo downloading; sleep 30');
    await install('install');
    await eventually(async () => (await voice()).install.log.includes('downloading'), 'the download to start');
    expect(await install('cancel')).toMatchObject({ status: 200, json: { ok: true, action: 'cancel' } });
    await eventually(async () => (await voice()).install.state === 'cancelled', 'the installation to stop');
  });

  test('when the service cannot install, it says which command to run; useExisting then takes it', async () => {
    n = await startInProcess({ speech: null });
    const engine = new FakeEngine();
    let onPath = false;
    n.daemon.core.voiceSetup.plan = () => ({ manual: 'sudo apt-get install espeak-ng' });
    n.daemon.core.voiceSetup.find = () => (onPath ? engine : null);
    expect((await voice()).installCommand).toBe('sudo apt-get install espeak-ng');
    const refused = await install('install');
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatch(/run: sudo apt-get install espeak-ng, then POST \/v1\/voice\/install \{"action":"useExisting"\}/);
    expect(await install('useExisting')).toMatchObject({
      status: 404,
      json: { error: 'no espeak-ng was found on the PATH; install it first' },
    });
    onPath = true;
    expect(await install('useExisting')).toMatchObject({ status: 200, json: { ok: true, action: 'useExisting', engineName: 'fake' } });
    expect(await voice()).toMatchObject({ installed: true, engineName: 'fake' });
  });
});
