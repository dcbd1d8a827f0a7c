import { beforeAll, describe, expect, test } from '@jest/globals';
import { type Running, callbackServer, eventually, startInProcess, whenWaiting } from '../helpers/in-process.js';

// Replies: the person types into a reply button (through the test presenter, as a display would report it);
// the app reads them with GET /v1/replies or waits with GET /v1/replies/wait, over real HTTP.

const replyButton = { label: 'Reply', reply: { placeholder: 'Why?' } };

describe('replies', () => {
  let n: Running;
  beforeAll(async () => {
    n = await startInProcess();
  });
  const ask = async (app: string, id: string, extra: Record<string, unknown> = {}) =>
    expect((await n.notify({ app, id, title: `Question ${id}`, buttons: [replyButton], ...extra })).status).toBe(200);
  const type = (app: string, id: string, text: string) => n.person.reply(app, id, 'reply', text);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  test('a reply goes on the History record and into the queue; the banner stays up', async () => {
    await ask('ra', 'q1');
    type('ra', 'q1', '  Because it was late.  ');
    const record = await eventually(async () => (await n.record('ra', 'q1')).reply && n.record('ra', 'q1'));
    expect(record).toMatchObject({ reply: 'Because it was late.', repliedAt: expect.any(String) });
    expect(record.dismissedAt).toBeUndefined();
    expect(n.person.banner('ra', 'q1')).toBeDefined();
    const queue = await n.api('GET', '/v1/replies?app=ra');
    expect(queue.json).toEqual({
      count: 1,
      replies: [{ notificationId: 'q1', app: 'ra', title: 'Question q1', text: 'Because it was late.', repliedAt: record.repliedAt }],
    });
  });

  test('an empty reply is ignored; a long one is cut at 4000 bytes on a character boundary', async () => {
    await ask('rb', 'empty');
    type('rb', 'empty', '   ');
    await ask('rb', 'long');
    type('rb', 'long', 'é'.repeat(2500)); // 5000 bytes
    await eventually(async () => (await n.record('rb', 'long')).reply);
    expect((await n.record('rb', 'empty')).reply).toBeUndefined();
    expect((await n.record('rb', 'long')).reply).toBe('é'.repeat(2000));
  });

  test('one reply per notification: a second replaces the first', async () => {
    await ask('rc', 'q');
    type('rc', 'q', 'first');
    await eventually(async () => (await n.api('GET', '/v1/replies?app=rc')).json.count === 1);
    type('rc', 'q', 'second');
    await eventually(async () => (await n.record('rc', 'q')).reply === 'second');
    const { json } = await n.api('GET', '/v1/replies?app=rc');
    expect(json.replies.map((r: { text: string }) => r.text)).toEqual(['second']);
  });

  test('the queue keeps the 200 most recent replies per app', async () => {
    for (let k = 0; k < 203; k++) await ask('rd', `q${k}`);
    for (let k = 0; k < 203; k++) {
      type('rd', `q${k}`, `answer ${k}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(async () => (await n.record('rd', 'q202')).reply);
    const { json } = await n.api('GET', '/v1/replies?app=rd');
    expect(json.count).toBe(200);
    expect(json.replies[0].text).toBe('answer 3');
    expect(json.replies[199].text).toBe('answer 202');
  });

  test('GET /v1/replies: oldest first, by app, since a date or epoch seconds, consume removes what it returned', async () => {
    await ask('re', 'a');
    await ask('re', 'b');
    type('re', 'a', 'A');
    await eventually(async () => (await n.record('re', 'a')).reply);
    await settle();
    const between = Date.now();
    await settle();
    type('re', 'b', 'B');
    await eventually(async () => (await n.api('GET', '/v1/replies?app=re')).json.count === 2);
    const texts = async (query: string) => (await n.api('GET', `/v1/replies?${query}`)).json.replies.map((r: { text: string }) => r.text);
    expect(await texts('app=re')).toEqual(['A', 'B']);
    expect(await texts(`app=re&since=${new Date(between).toISOString()}`)).toEqual(['B']);
    expect(await texts(`app=re&since=${between / 1000}`)).toEqual(['B']);
    expect(await texts('app=re&since=2000-01-01')).toEqual(['A', 'B']);
    expect(await texts(`app=re&since=${between / 1000}&consume=true`)).toEqual(['B']);
    expect(await texts('app=re')).toEqual(['A']); // without consume a reply is returned again
    expect(await texts('app=re&consume=yes')).toEqual(['A']);
    expect(await texts('app=re')).toEqual([]);
    // The replies stay on the History records.
    expect((await n.record('re', 'b')).reply).toBe('B');
  });

  test.each(['yesterday', '12/01/2026', '-5', 'now'])('since=%s is 400', async (since) => {
    const reply = await n.api('GET', `/v1/replies?since=${encodeURIComponent(since)}`);
    expect(reply.status).toBe(400);
    expect(reply.json.error).toBe('invalid field: since (an ISO 8601 date or epoch seconds)');
  });

  test('consume=maybe is 400', async () => {
    expect((await n.api('GET', '/v1/replies?consume=maybe')).status).toBe(400);
  });

  describe('GET /v1/replies/wait', () => {
    test('a waiting request is answered the moment the person replies, and consumes the reply', async () => {
      await ask('wa', 'live');
      const started = Date.now();
      const waiting = n.api('GET', '/v1/replies/wait?id=live&timeout=20');
      await new Promise((resolve) => setTimeout(resolve, 300));
      type('wa', 'live', 'on my way');
      const answer = await waiting;
      expect(Date.now() - started).toBeLessThan(5000);
      expect(answer.json).toEqual({
        replied: true,
        reply: expect.objectContaining({ notificationId: 'live', app: 'wa', text: 'on my way' }),
      });
      expect((await n.api('GET', '/v1/replies?app=wa')).json.count).toBe(0);
    });

    test('a reply already there is returned at once; consume=false leaves it in the queue', async () => {
      await ask('wb', 'done');
      type('wb', 'done', 'already');
      await eventually(async () => (await n.api('GET', '/v1/replies?app=wb')).json.count === 1);
      const first = await n.api('GET', '/v1/replies/wait?id=done&consume=false');
      expect(first.json).toMatchObject({ replied: true, reply: { text: 'already' } });
      expect((await n.api('GET', '/v1/replies?app=wb')).json.count).toBe(1);
    });

    test('with app, a reply already consumed is still found in History', async () => {
      await ask('wc', 'old');
      type('wc', 'old', 'from before');
      await eventually(async () => (await n.api('GET', '/v1/replies?app=wc')).json.count === 1);
      await n.api('GET', '/v1/replies?app=wc&consume=true');
      const withApp = await n.api('GET', '/v1/replies/wait?id=old&app=wc&timeout=1');
      expect(withApp.json).toMatchObject({ replied: true, reply: { text: 'from before', app: 'wc' } });
      const withoutApp = await n.api('GET', '/v1/replies/wait?id=old&timeout=1');
      expect(withoutApp.json).toEqual({ replied: false, timedOut: true, waitedSeconds: 1 });
    });

    test('no reply in time: status 200 with replied false, timedOut true, waitedSeconds', async () => {
      await ask('wd', 'silent');
      const started = Date.now();
      const reply = await n.api('GET', '/v1/replies/wait?id=silent&app=wd&timeout=1');
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ replied: false, timedOut: true, waitedSeconds: 1 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });

    test('the older spellings notificationId and timeoutSeconds work too', async () => {
      const reply = await n.api('GET', '/v1/replies/wait?notificationId=nothing&timeoutSeconds=1');
      expect(reply.json).toMatchObject({ replied: false, timedOut: true });
    });

    test.each([
      ['', 'missing field: id'],
      ['id=x&timeout=0', 'invalid field: timeout (seconds from 1 to 300)'],
      ['id=x&timeout=301', 'invalid field: timeout (seconds from 1 to 300)'],
      ['id=x&timeout=soon', 'invalid field: timeout (seconds from 1 to 300)'],
      ['id=x&consume=perhaps', 'invalid field: consume (true or false)'],
    ])('%s is 400: %s', async (query, message) => {
      const reply = await n.api('GET', `/v1/replies/wait?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.json.error).toBe(message);
    });

    describe('ended: a button pressed, or any other end of the banner, answers the wait too', () => {
      const yesNo = [{ label: 'Yes' }, { label: 'No', url: 'https://example.com/no' }, replyButton];
      const waiting = (id: string) => whenWaiting(n, id);

      test('a button pressed while the request waits answers it at once, with the button', async () => {
        await ask('we', 'deploy', { buttons: yesNo });
        const open = waiting('deploy');
        const answer = n.api('GET', '/v1/replies/wait?id=deploy&app=we&timeout=20&ended=true');
        await open;
        n.person.press('we', 'deploy', 'yes');
        const { status, json } = await answer;
        const record = await n.record('we', 'deploy');
        expect([status, json]).toEqual([
          200,
          { replied: false, ended: true, endedAt: record.dismissedAt, actionUsed: 'Yes', button: 'Yes' },
        ]);
      });

      test('a button pressed before the wait (with app) answers at once; so does a banner closed by the person, without a button', async () => {
        await ask('we', 'before', { buttons: yesNo, persistent: true });
        n.person.press('we', 'before', 'no');
        await eventually(async () => (await n.record('we', 'before')).dismissedAt);
        const started = Date.now();
        const pressed = await n.api('GET', '/v1/replies/wait?id=before&app=we&timeout=20&ended=yes');
        expect(pressed.json).toMatchObject({ replied: false, ended: true, actionUsed: 'No', button: 'No' });
        expect(Date.now() - started).toBeLessThan(5000);

        await ask('we', 'closed', { buttons: yesNo, persistent: true });
        const open = waiting('closed');
        const answer = n.api('GET', '/v1/replies/wait?id=closed&app=we&timeout=20&ended=true');
        await open;
        n.person.closeByPerson('we', 'closed');
        expect((await answer).json).toEqual({ replied: false, ended: true, endedAt: expect.any(String), actionUsed: 'close' });
      });

      test('a reply still answers as a reply; without ended, a pressed button leaves the wait waiting', async () => {
        await ask('we', 'typed', { buttons: yesNo });
        const open = waiting('typed');
        const answer = n.api('GET', '/v1/replies/wait?id=typed&app=we&timeout=20&ended=true');
        await open;
        type('we', 'typed', 'after five');
        expect((await answer).json).toMatchObject({ replied: true, reply: { text: 'after five' } });

        await ask('we', 'plain', { buttons: yesNo });
        const plain = waiting('plain');
        const unanswered = n.api('GET', '/v1/replies/wait?id=plain&app=we&timeout=1');
        await plain;
        n.person.press('we', 'plain', 'yes');
        expect((await unanswered).json).toEqual({ replied: false, timedOut: true, waitedSeconds: 1 });
      });

      test('ended=perhaps is 400', async () => {
        const reply = await n.api('GET', '/v1/replies/wait?id=x&ended=perhaps');
        expect([reply.status, reply.json.error]).toEqual([400, 'invalid field: ended (true or false)']);
      });
    });

    test('a wait longer than the 10 s request limit is not cut', async () => {
      const reply = await n.api('GET', '/v1/replies/wait?id=never&timeout=11', { timeoutMs: 20_000 });
      expect(reply.json).toEqual({ replied: false, timedOut: true, waitedSeconds: 11 });
    }, 20_000);

    test('hundreds of waits at once do not starve other requests', async () => {
      const waits = Array.from({ length: 300 }, (_, k) => n.api('GET', `/v1/replies/wait?id=many-${k}&timeout=3`));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      expect((await n.notify({ app: 'busy', title: 'still served' })).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
      await ask('busy', 'many-7');
      type('busy', 'many-7', 'seven');
      const answers = await Promise.all(waits);
      expect(answers.filter((a) => a.json.replied)).toHaveLength(1);
      expect(answers.filter((a) => a.json.timedOut)).toHaveLength(299);
    });
  });

  test("a reply is posted to the reply button's callback with payload.reply; a 2xx closes the banner", async () => {
    const server = await callbackServer();
    await n.notify({
      app: 'rf',
      id: 'cb',
      title: 't',
      buttons: [{ label: 'Answer', reply: { callback: { url: server.url(), payload: { ticket: 7 } } } }],
    });
    n.person.reply('rf', 'cb', 'answer', 'fixed it');
    await eventually(() => server.received.length > 0, 'the callback');
    expect(server.received[0]!.body).toEqual({
      notificationId: 'cb',
      app: 'rf',
      action: 'Answer',
      payload: { ticket: 7, reply: 'fixed it' },
    });
    await eventually(async () => (await n.record('rf', 'cb')).dismissedAt, 'the dismissal');
    expect(await n.record('rf', 'cb')).toMatchObject({ reply: 'fixed it', actionUsed: 'Answer', dismissedAt: expect.any(String) });
  });

  test('the reply queue survives a restart', async () => {
    const other = await startInProcess();
    await other.notify({ app: 'rg', id: 'p', title: 't', buttons: [replyButton] });
    other.person.reply('rg', 'p', 'reply', 'kept');
    await eventually(async () => (await other.api('GET', '/v1/replies?app=rg')).json.count === 1);
    const folder = other.daemon.supportDir;
    await other.daemon.stop();
    const again = await startInProcess({ supportDir: folder });
    expect((await again.api('GET', '/v1/replies?app=rg')).json.replies).toEqual([expect.objectContaining({ text: 'kept' })]);
  });
});
