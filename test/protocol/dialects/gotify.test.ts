import { describe, expect, test } from '@jest/globals';
import {
  GOTIFY_VERSION,
  GotifyError,
  gotifyErrorBody,
  gotifyErrors,
  gotifyMessage,
  readGotifyMessage,
  type GotifyRequest,
} from '../../../protocol/dialects/gotify.js';
import { parseMarkdown, plainText } from '../../../protocol/markdown.js';

// Gotify's POST /message read in each of its body kinds and translated into a /v1/notify body; its answers and its
// error shape.

const APP = 'backup';

const json = (value: unknown, contentType: string | undefined = 'application/json'): GotifyRequest => ({
  contentType,
  body: Buffer.from(JSON.stringify(value)),
});

const urlencoded = (fields: Record<string, string>): GotifyRequest => ({
  contentType: 'application/x-www-form-urlencoded',
  body: Buffer.from(new URLSearchParams(fields).toString()),
});

/** A multipart body as a browser or curl -F would send it: the bytes and the content type with its boundary. */
async function multipart(fields: Record<string, string | Blob>): Promise<GotifyRequest> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = new Response(form);
  return { contentType: response.headers.get('content-type') ?? undefined, body: Buffer.from(await response.arrayBuffer()) };
}

const read = (request: GotifyRequest) => readGotifyMessage(request, APP);

/** The error a read refuses with, as status and message. */
async function refusal(request: GotifyRequest): Promise<{ status: number; message: string }> {
  try {
    await read(request);
  } catch (error) {
    if (error instanceof GotifyError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('the request was accepted');
}

describe('the body kinds', () => {
  test('JSON', async () => {
    expect(await read(json({ title: 'Backup', message: 'Done in 3 min', priority: 2 }))).toEqual({
      notify: { app: APP, title: 'Backup', body: 'Done in 3 min', priority: 'low' },
      title: 'Backup',
      message: 'Done in 3 min',
      priority: 2,
    });
  });

  test('JSON with parameters in its content type, in any case', async () => {
    expect((await read(json({ message: 'hi' }, 'Application/JSON; charset=utf-8'))).notify).toEqual({ app: APP, title: APP, body: 'hi' });
  });

  test('JSON without a content type, when the body is an object', async () => {
    expect((await read({ contentType: undefined, body: Buffer.from(' {"message":"hi","priority":8}') })).notify).toEqual({
      app: APP,
      title: APP,
      body: 'hi',
      priority: 'high',
    });
  });

  test('a URL-encoded form', async () => {
    expect(await read(urlencoded({ title: 'Disk', message: 'Almost full: 95%', priority: '9' }))).toEqual({
      notify: { app: APP, title: 'Disk', body: 'Almost full: 95%', priority: 'high' },
      title: 'Disk',
      message: 'Almost full: 95%',
      priority: 9,
    });
  });

  test('a URL-encoded form without a content type', async () => {
    const request = { contentType: undefined, body: Buffer.from('message=caf%C3%A9+open&priority=0') };
    expect(await read(request)).toEqual({
      notify: { app: APP, title: APP, body: 'café open', priority: 'low' },
      title: APP,
      message: 'café open',
      priority: 0,
    });
  });

  test('a multipart form', async () => {
    expect(await read(await multipart({ title: 'Übung', message: 'Ready: 3 files', priority: '10' }))).toEqual({
      notify: { app: APP, title: 'Übung', body: 'Ready: 3 files', priority: 'urgent', persistent: true },
      title: 'Übung',
      message: 'Ready: 3 files',
      priority: 10,
    });
  });

  test('a multipart form written by hand (curl -F), its line breaks kept as sent', async () => {
    const body = [
      '--b0undary',
      'Content-Disposition: form-data; name="message"',
      '',
      'Line 1\nLine 2',
      '--b0undary',
      'Content-Disposition: form-data; name="priority"',
      '',
      '1',
      '--b0undary--',
      '',
    ].join('\r\n');
    expect(await read({ contentType: 'multipart/form-data; boundary=b0undary', body: Buffer.from(body) })).toEqual({
      notify: { app: APP, title: APP, body: 'Line 1\nLine 2', priority: 'low' },
      title: APP,
      message: 'Line 1\nLine 2',
      priority: 1,
    });
  });

  test('a file part named message is no message', async () => {
    expect(await refusal(await multipart({ message: new Blob(['hello']) }))).toEqual({
      status: 400,
      message: 'the message field is required and must not be empty',
    });
  });

  test('a form has no extras', async () => {
    const translation = await read(urlencoded({ message: 'hi', extras: '{"client::display":{"contentType":"text/markdown"}}' }));
    expect(translation).toEqual({ notify: { app: APP, title: APP, body: 'hi' }, title: APP, message: 'hi', priority: 5 });
  });

  test('unreadable bodies', async () => {
    expect(await refusal({ contentType: 'application/json', body: Buffer.from('{"message":') })).toEqual({
      status: 400,
      message: 'the body cannot be read: invalid JSON',
    });
    expect(await refusal(json(['message']))).toEqual({ status: 400, message: 'the body cannot be read: the JSON body must be an object' });
    expect(await refusal({ contentType: 'multipart/form-data', body: Buffer.from('message=hi') })).toEqual({
      status: 400,
      message: 'the body cannot be read: the form could not be read',
    });
    expect(await refusal({ contentType: 'text/plain', body: Buffer.from('hi') })).toEqual({
      status: 400,
      message:
        'the body cannot be read: unsupported Content-Type "text/plain": send application/json, application/x-www-form-urlencoded or multipart/form-data',
    });
  });
});

describe('the message and the title', () => {
  test('a missing or empty message is refused, whatever the body kind', async () => {
    const missing = { status: 400, message: 'the message field is required and must not be empty' };
    expect(await refusal(json({ title: 'x' }))).toEqual(missing);
    expect(await refusal(json({ message: '' }))).toEqual(missing);
    expect(await refusal(json({ message: null }))).toEqual(missing);
    expect(await refusal(urlencoded({ title: 'x' }))).toEqual(missing);
    expect(await refusal(urlencoded({ message: '' }))).toEqual(missing);
    expect(await refusal(await multipart({ message: '' }))).toEqual(missing);
    expect(await refusal({ contentType: undefined, body: Buffer.alloc(0) })).toEqual(missing);
  });

  test('a message or title that is not text is refused', async () => {
    expect(await refusal(json({ message: 42 }))).toEqual({ status: 400, message: 'the body cannot be read: message must be a string' });
    expect(await refusal(json({ message: 'hi', title: ['a'] }))).toEqual({
      status: 400,
      message: 'the body cannot be read: title must be a string',
    });
  });

  test('without a title (or with a blank one) the title is the app', async () => {
    expect((await read(json({ message: 'hi', title: '  ' }))).title).toBe(APP);
    expect((await read(json({ message: 'hi', title: null }))).notify).toEqual({ app: APP, title: APP, body: 'hi' });
  });

  test('a white-space message is still a message, kept as sent', async () => {
    expect((await read(json({ message: ' ' }))).notify).toEqual({ app: APP, title: APP, body: ' ' });
  });
});

describe('priority', () => {
  const notifyPriority = async (priority: number) => (await read(json({ message: 'm', priority }))).notify;

  test.each([
    [0, { priority: 'low' }],
    [3, { priority: 'low' }],
    [4, {}],
    [7, {}],
    [8, { priority: 'high' }],
    [9, { priority: 'high' }],
    [10, { priority: 'urgent', persistent: true }],
  ])('%i', async (priority, fields) => {
    expect(await notifyPriority(priority)).toEqual({ app: APP, title: APP, body: 'm', ...fields });
  });

  test('absent (or null) means 5, a normal notification', async () => {
    expect(await read(json({ message: 'm' }))).toEqual({
      notify: { app: APP, title: APP, body: 'm' },
      title: APP,
      message: 'm',
      priority: 5,
    });
    expect((await read(json({ message: 'm', priority: null }))).priority).toBe(5);
  });

  test('an empty form field counts as absent', async () => {
    expect((await read(urlencoded({ message: 'm', priority: '' }))).priority).toBe(5);
  });

  test.each([
    [11, '11'],
    [-1, '-1'],
    ['high', '"high"'],
    [2.5, '2.5'],
    ['5', '"5"'],
    [true, 'true'],
  ])('JSON %p is refused', async (priority, shown) => {
    expect(await refusal(json({ message: 'm', priority }))).toEqual({
      status: 400,
      message: `priority must be a whole number from 0 to 10 (got ${shown})`,
    });
  });

  test.each([
    ['11', '11'],
    ['-1', '-1'],
    ['high', '"high"'],
    ['2.5', '"2.5"'],
    [' 5', '" 5"'],
  ])('form %p is refused', async (priority, shown) => {
    const expected = { status: 400, message: `priority must be a whole number from 0 to 10 (got ${shown})` };
    expect(await refusal(urlencoded({ message: 'm', priority }))).toEqual(expected);
    expect(await refusal(await multipart({ message: 'm', priority }))).toEqual(expected);
  });

  test('a long refused value is cut short in the message', async () => {
    expect(await refusal(urlencoded({ message: 'm', priority: 'x'.repeat(1000) }))).toEqual({
      status: 400,
      message: `priority must be a whole number from 0 to 10 (got "${'x'.repeat(39)}…)`,
    });
  });
});

describe('extras', () => {
  const MARKS = 'a *b* _c_ **d** `e` [f](https://x.example) \\g';

  test('plain text: every Markdown mark is escaped, so the banner shows the text as written', async () => {
    const translation = await read(json({ message: MARKS }));
    expect(translation.notify.body).toBe('a \\*b\\* \\_c\\_ \\*\\*d\\*\\* \\`e\\` \\[f\\](https://x.example) \\\\g');
    expect(translation.message).toBe(MARKS);
    expect(plainText(parseMarkdown(translation.notify.body as string))).toBe(MARKS);
    expect(parseMarkdown(translation.notify.body as string).every((run) => !run.bold && !run.italic && !run.link)).toBe(true);
  });

  test('text/markdown: the body goes as it is', async () => {
    const extras = { 'client::display': { contentType: 'text/markdown' } };
    expect(await read(json({ message: MARKS, extras }))).toEqual({
      notify: { app: APP, title: APP, body: MARKS },
      title: APP,
      message: MARKS,
      priority: 5,
      extras,
    });
  });

  test('another content type is plain text', async () => {
    const translation = await read(json({ message: '*x*', extras: { 'client::display': { contentType: 'text/plain' } } }));
    expect(translation.notify.body).toBe('\\*x\\*');
  });

  test('click.url becomes the link, bigImageUrl the picture; other extras are echoed and ignored', async () => {
    const extras = {
      'client::notification': { click: { url: 'https://backup.example/run/7' }, bigImageUrl: 'https://backup.example/chart.png' },
      'android::action': { onReceive: { intentUrl: 'https://backup.example' } },
      'home::thermostat': 21,
    };
    expect(await read(json({ title: 'Backup', message: 'Done', priority: 6, extras }))).toEqual({
      notify: { app: APP, title: 'Backup', body: 'Done', url: 'https://backup.example/run/7', image: 'https://backup.example/chart.png' },
      title: 'Backup',
      message: 'Done',
      priority: 6,
      extras,
    });
  });

  test('a click URL goes as it is (the daemon checks its scheme)', async () => {
    const extras = { 'client::notification': { click: { url: 'javascript:alert(1)' } } };
    expect((await read(json({ message: 'm', extras }))).notify).toEqual({ app: APP, title: APP, body: 'm', url: 'javascript:alert(1)' });
  });

  test('a picture that is not an https URL is left out: a file on this computer is not for a Gotify sender to name', async () => {
    for (const bigImageUrl of [
      '/etc/hosts',
      'file:///etc/hosts',
      '~/secret.png',
      'http://x.example/a.png',
      'data:image/png;base64,AA',
      7,
    ]) {
      const extras = { 'client::notification': { bigImageUrl } };
      expect((await read(json({ message: 'm', extras }))).notify).toEqual({ app: APP, title: APP, body: 'm' });
    }
  });

  test('namespaces of the wrong shape are ignored', async () => {
    for (const extras of [
      { 'client::notification': 'x' },
      { 'client::notification': { click: 'https://x.example' } },
      { 'client::notification': { click: { url: 5 } } },
      { 'client::notification': { click: { url: '' } } },
      { 'client::display': ['text/markdown'] },
    ]) {
      expect((await read(json({ message: '*m*', extras }))).notify).toEqual({ app: APP, title: APP, body: '\\*m\\*' });
    }
  });

  test('empty or null extras count as none', async () => {
    expect(await read(json({ message: 'm', extras: {} }))).toEqual({
      notify: { app: APP, title: APP, body: 'm' },
      title: APP,
      message: 'm',
      priority: 5,
    });
    expect('extras' in (await read(json({ message: 'm', extras: null })))).toBe(false);
  });

  test('extras that are not an object are refused', async () => {
    for (const extras of [['client::display'], 'x', 3]) {
      expect(await refusal(json({ message: 'm', extras }))).toEqual({
        status: 400,
        message: 'the body cannot be read: extras must be an object keyed by namespace, such as {"client::display": {...}}',
      });
    }
  });

  test('inherited keys are not read', async () => {
    const body = Buffer.from('{"message":"m","extras":{"__proto__":{"client::display":{"contentType":"text/markdown"}}}}');
    const translation = await read({ contentType: 'application/json', body });
    expect(translation.notify).toEqual({ app: APP, title: APP, body: 'm' });
    expect(({} as Record<string, unknown>)['client::display']).toBeUndefined();
  });
});

describe('the answers', () => {
  test("the stored message, as Gotify's answer writes it", async () => {
    const extras = { 'client::display': { contentType: 'text/markdown' } };
    const translation = await read(json({ message: '**Done**', priority: 4, extras }));
    const answer = gotifyMessage(translation, 12, 3, '2026-10-02T13:15:00.000Z');
    expect(answer).toEqual({ id: 12, appid: 3, message: '**Done**', title: APP, priority: 4, extras, date: '2026-10-02T13:15:00.000Z' });
    expect(Object.keys(answer)).toEqual(['id', 'appid', 'message', 'title', 'priority', 'extras', 'date']);
  });

  test('without extras there is no extras key, and the message is as sent (not escaped)', async () => {
    const translation = await read(urlencoded({ message: 'snake_case' }));
    expect(gotifyMessage(translation, 1, 1, '2026-10-02T13:15:00.000Z')).toEqual({
      id: 1,
      appid: 1,
      message: 'snake_case',
      title: APP,
      priority: 5,
      date: '2026-10-02T13:15:00.000Z',
    });
    expect(JSON.stringify(gotifyMessage(translation, 1, 1, 'd'))).toBe(
      '{"id":1,"appid":1,"message":"snake_case","title":"backup","priority":5,"date":"d"}',
    );
  });

  test('the version', () => {
    expect(GOTIFY_VERSION).toEqual({ version: '2.6.1', commit: 'notifier', buildDate: '2025-01-01T00:00:00Z' });
    expect(Object.isFrozen(GOTIFY_VERSION)).toBe(true);
  });
});

describe('errors', () => {
  test('the error body has the reason phrase of its status', () => {
    expect(gotifyErrorBody(400, 'the message field is required and must not be empty')).toEqual({
      error: 'Bad Request',
      errorCode: 400,
      errorDescription: 'the message field is required and must not be empty',
    });
    expect(gotifyErrorBody(401, 'x')).toEqual({ error: 'Unauthorized', errorCode: 401, errorDescription: 'x' });
    expect(gotifyErrorBody(413, 'x')).toEqual({ error: 'Payload Too Large', errorCode: 413, errorDescription: 'x' });
    expect(gotifyErrorBody(599, 'x')).toEqual({ error: 'Unknown Status', errorCode: 599, errorDescription: 'x' });
  });

  test('the catalogue', () => {
    const catalogue: Array<[GotifyError, number, string]> = [
      [gotifyErrors.messageMissing(), 400, 'the message field is required and must not be empty'],
      [gotifyErrors.priorityInvalid('high'), 400, 'priority must be a whole number from 0 to 10 (got "high")'],
      [gotifyErrors.bodyInvalid('invalid JSON'), 400, 'the body cannot be read: invalid JSON'],
      [gotifyErrors.unauthorized(), 401, 'you need to provide a valid access token or user credentials to access this api'],
      [gotifyErrors.forbidden(), 403, 'this key is not allowed to send messages'],
      [gotifyErrors.notFound(), 404, 'no such page'],
      [gotifyErrors.tooLarge(), 413, 'the body is too large (at most 1048576 bytes)'],
      [gotifyErrors.tooLarge(1000), 413, 'the body is too large (at most 1000 bytes)'],
      [gotifyErrors.tooManyRequests(), 429, 'too many requests; try again later'],
      [gotifyErrors.tooManyRequests('too many apps (at most 200)'), 429, 'too many apps (at most 200)'],
    ];
    for (const [error, status, message] of catalogue) {
      expect({ status: error.status, message: error.message, name: error.name }).toEqual({ status, message, name: 'GotifyError' });
    }
    expect(gotifyErrors.notFound()).toBeInstanceOf(Error);
  });

  test('an error as it goes on the wire', () => {
    const error = gotifyErrors.unauthorized();
    expect(gotifyErrorBody(error.status, error.message)).toEqual({
      error: 'Unauthorized',
      errorCode: 401,
      errorDescription: 'you need to provide a valid access token or user credentials to access this api',
    });
  });
});
