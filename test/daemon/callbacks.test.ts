import os from 'node:os';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { type Running, answerQuestion, callbackServer, channel, eventually, startInProcess } from '../helpers/in-process.js';

// docs/api/replies.md#the-callback-request: the callback request, sent to a real HTTP server on this computer when
// the person presses a callback button (through the test presenter).

/** An address of this computer that is not a loopback name: a callback to it needs the person's approval. */
function nonLoopbackHost(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal);
  return found?.address ?? '0.0.0.0';
}

describe('callback buttons', () => {
  let n: Running;
  beforeAll(async () => {
    n = await startInProcess();
  });
  const press = async (app: string, id: string, url: string | undefined, payload?: unknown) => {
    const callback = { ...(url ? { url } : {}), ...(payload !== undefined ? { payload } : {}) };
    expect((await n.notify({ app, id, title: 't', buttons: [{ label: 'Approve', callback }] })).status).toBe(200);
    n.person.press(app, id, 'approve');
  };

  test('a 2xx answer: one POST with the body and headers of docs/api/replies.md#r10, and the banner closes', async () => {
    const server = await callbackServer(() => 204);
    await press('cb', 'ok', server.url('/hook'), { pr: 17 });
    await eventually(async () => (await n.record('cb', 'ok')).dismissedAt, 'the dismissal');
    expect(server.received).toHaveLength(1);
    const [call] = server.received;
    expect(call!.path).toBe('/hook');
    expect(call!.headers['x-notifier-attempt']).toBe('1');
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.body).toEqual({ notificationId: 'ok', app: 'cb', action: 'Approve', payload: { pr: 17 } });
    expect(await n.record('cb', 'ok')).toMatchObject({ actionUsed: 'Approve' });
    expect(n.person.banner('cb', 'ok')).toBeUndefined();
  });

  test("docs/api/replies.md#r10: the payload gains `extra`, the template's extra values, next to `reply` for a reply", async () => {
    const server = await callbackServer(() => 200);
    const extra = { env: 'prod', ticket: 'OPS-7' };
    expect((await n.api('PUT', '/v1/templates', { body: { app: 'cbx', name: 'deploy', extra } })).status).toBe(200);
    const withTemplate = { app: 'cbx', template: 'deploy', title: 'Deploy {extra.env}?' };
    const buttons = [
      { label: 'Approve', callback: { url: server.url('/press'), payload: { pr: 17 } } },
      { label: 'Answer', reply: { callback: { url: server.url('/reply') } } },
    ];
    expect((await n.notify({ ...withTemplate, id: 'pressed', buttons })).status).toBe(200);
    expect((await n.notify({ ...withTemplate, id: 'replied', buttons })).status).toBe(200);
    n.person.press('cbx', 'pressed', 'approve');
    n.person.reply('cbx', 'replied', 'answer', 'after lunch');
    await eventually(() => server.received.length === 2, 'both callbacks');
    const bodyAt = (path: string) => server.received.find((call) => call.path === path)!.body;
    expect(bodyAt('/press')).toEqual({ notificationId: 'pressed', app: 'cbx', action: 'Approve', payload: { pr: 17, extra } });
    expect(bodyAt('/reply')).toEqual({ notificationId: 'replied', app: 'cbx', action: 'Answer', payload: { reply: 'after lunch', extra } });
  });

  test('503 then 200: one retry with X-Notifier-Attempt 2, then success', async () => {
    const server = await callbackServer((_request, index) => (index === 0 ? 503 : 200));
    await press('cb', 'retry', server.url());
    await eventually(async () => (await n.record('cb', 'retry')).dismissedAt, 'the dismissal');
    expect(server.received.map((call) => call.headers['x-notifier-attempt'])).toEqual(['1', '2']);
    expect(server.received[1]!.at - server.received[0]!.at).toBeGreaterThanOrEqual(700);
  });

  test('404: no retry; the banner stays up and the record says why', async () => {
    const server = await callbackServer(() => 404);
    await press('cb', 'missing', server.url());
    await eventually(async () => (await n.record('cb', 'missing')).actionNote, 'the note');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(server.received).toHaveLength(1);
    expect(await n.record('cb', 'missing')).toMatchObject({ actionNote: 'Approve: HTTP 404' });
    expect((await n.record('cb', 'missing')).dismissedAt).toBeUndefined();
    expect(n.person.banner('cb', 'missing')).toBeDefined();
  });

  test('a redirect is never followed', async () => {
    const server = await callbackServer((request) => (request.path === '/redirected' ? 200 : 302));
    await press('cb', 'moved', server.url('/old'));
    await eventually(async () => (await n.record('cb', 'moved')).actionNote, 'the note');
    expect(server.received.map((call) => call.path)).toEqual(['/old']);
    expect((await n.record('cb', 'moved')).actionNote).toBe('Approve: HTTP 302');
  });

  test('a server that never answers: 5 s per attempt, one retry, then the record says it timed out', async () => {
    const server = await callbackServer(() => 'hang');
    const started = Date.now();
    await press('cb', 'slow', server.url());
    await eventually(async () => (await n.record('cb', 'slow')).actionNote, 'the note', 20_000);
    const took = Date.now() - started;
    expect(server.received).toHaveLength(2);
    expect(took).toBeGreaterThanOrEqual(10_000);
    expect(took).toBeLessThan(14_000);
    expect((await n.record('cb', 'slow')).actionNote).toBe('Approve: timed out after 5 s');
  }, 25_000);

  test("without a URL of its own, the button posts to the app's registered callbackURL", async () => {
    const server = await callbackServer();
    await n.api('POST', '/v1/register', { body: { app: 'registered', callbackURL: server.url('/app-hook') } });
    await press('registered', 'r', undefined);
    await eventually(() => server.received.length > 0, 'the callback');
    expect(server.received[0]!.path).toBe('/app-hook');
  });

  test('no URL anywhere: the record says so', async () => {
    await press('nowhere', 'n', undefined);
    await eventually(async () => (await n.record('nowhere', 'n')).actionNote);
    expect((await n.record('nowhere', 'n')).actionNote).toBe('Approve: no callback URL');
  });

  test("another host needs the person's approval first (per app and host); nothing is sent before it", async () => {
    const server = await callbackServer();
    const remote = `http://${nonLoopbackHost()}:${server.port}/remote`;
    await press('far', 'one', remote);
    const { questions } = await eventually(async () => {
      const answer = await channel(n.daemon.channelPath, { op: 'questions' });
      return answer.questions.length > 0 && answer;
    }, 'the question');
    expect(questions[0]).toMatchObject({ app: 'far', kind: 'callbackHost', detail: remote });
    expect(n.person.questions.size).toBe(1); // the banner asks
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.received).toHaveLength(0);
    await answerQuestion(n, 'far', true);
    await eventually(async () => (await n.record('far', 'one')).dismissedAt, 'the callback after approval');
    expect(server.received.map((call) => call.path)).toEqual(['/remote']);
    expect(n.person.questions.size).toBe(0);
    // The same app and host: no question again.
    await press('far', 'two', remote);
    await eventually(async () => (await n.record('far', 'two')).dismissedAt);
    // Another app: asked again; a refusal sends nothing and is noted.
    await press('near', 'three', remote);
    await eventually(async () => (await channel(n.daemon.channelPath, { op: 'questions' })).questions.length > 0);
    await answerQuestion(n, 'near', false);
    await eventually(async () => (await n.record('near', 'three')).actionNote);
    expect((await n.record('near', 'three')).actionNote).toMatch(/^Approve: the person did not allow /);
    expect(server.received).toHaveLength(2);
    const listed = (await n.api('GET', '/v1/actions/approvals')).json.apps;
    expect(listed).toContainEqual(
      expect.objectContaining({ app: 'far', callbackHosts: [expect.objectContaining({ host: new URL(remote).host })] }),
    );
  });

  test('a second press while the first is still running is ignored', async () => {
    const server = await callbackServer((_request, index) => (index === 0 ? 503 : 200));
    await press('cb', 'double', server.url());
    n.person.press('cb', 'double', 'approve');
    await eventually(async () => (await n.record('cb', 'double')).dismissedAt);
    expect(server.received).toHaveLength(2); // one press: the first attempt and its retry
  });
});
