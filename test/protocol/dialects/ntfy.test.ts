// ntfy's publishing dialect read as a `/v1/notify` body (protocol/dialects/ntfy.ts): every parameter under each of
// its names, as a header and in the query; ntfy's message JSON; what ntfy or Notifier refuses, with ntfy's codes; and
// the answer ntfy's clients read back.

import { describe, expect, test } from '@jest/globals';
import {
  NTFY_RESERVED_TOPICS,
  NtfyError,
  ntfyErrorBody,
  ntfyErrors,
  ntfyMessage,
  readNtfyPublish,
  type NtfyErrorBody,
  type NtfyRequest,
  type NtfyTranslation,
} from '../../../protocol/dialects/ntfy.js';
import { parseMarkdown, plainText } from '../../../protocol/markdown.js';

const EMOJI: Record<string, string> = { warning: '⚠️', rocket: '🚀' };
const emoji = (shortcode: string): string | undefined => (Object.hasOwn(EMOJI, shortcode) ? EMOJI[shortcode] : undefined);

interface Parts {
  method?: NtfyRequest['method'];
  topic?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: string | Buffer;
}

const requestOf = (parts: Parts): NtfyRequest => ({
  method: parts.method ?? 'POST',
  topic: 'topic' in parts ? parts.topic : 'alerts',
  headers: parts.headers ?? {},
  query: new URLSearchParams(parts.query ?? {}),
  body: Buffer.isBuffer(parts.body) ? parts.body : Buffer.from(parts.body ?? '', 'utf8'),
});

const publish = (parts: Parts): NtfyTranslation => readNtfyPublish(requestOf(parts), emoji);
const notify = (parts: Parts): Record<string, unknown> => publish(parts).notify;

/** `POST /` with ntfy's message JSON. */
const publishJSON = (json: unknown, headers: Record<string, string> = {}): NtfyTranslation =>
  readNtfyPublish(
    { method: 'POST', topic: undefined, headers, query: new URLSearchParams(), body: Buffer.from(JSON.stringify(json)) },
    emoji,
  );

/** The error body of what `run` throws; fails when it throws nothing or something that is not an NtfyError. */
function refusal(run: () => unknown): NtfyErrorBody {
  try {
    run();
  } catch (error) {
    if (error instanceof NtfyError) return ntfyErrorBody(error);
    throw error;
  }
  throw new Error('expected an NtfyError');
}

const refused = (parts: Parts): NtfyErrorBody => refusal(() => publish(parts));

const ACTIONS_INVALID = 'invalid request: actions invalid, ';
const actionsRefusal = (why: string): NtfyErrorBody => ({ code: 40018, http: 400, error: ACTIONS_INVALID + why });
/** A test of each `x-actions` value: refused, for the reason given. */
const refusesActions = (cases: Array<[actions: string, why: string]>) =>
  test.each(cases)('%s is refused', (actions, why) => {
    expect(refused({ headers: { 'x-actions': actions } })).toEqual(actionsRefusal(why));
  });

describe('every parameter under each of its names, as a header and in the query', () => {
  interface Case {
    names: string[];
    value: string;
    /** What else the request needs for this parameter to show. */
    with?: Parts;
    notify: Record<string, unknown>;
    echo: Record<string, unknown>;
  }

  const CASES: Record<string, Case> = {
    title: {
      names: ['x-title', 'title', 't'],
      value: 'Disk full',
      notify: { app: 'alerts', title: 'Disk full' },
      echo: { title: 'Disk full', message: 'triggered' },
    },
    message: {
      names: ['x-message', 'message', 'm'],
      value: 'Backup done',
      notify: { app: 'alerts', title: 'Backup done' },
      echo: { message: 'Backup done' },
    },
    priority: {
      names: ['x-priority', 'priority', 'prio', 'p'],
      value: 'high',
      notify: { app: 'alerts', title: 'triggered', priority: 'high' },
      echo: { message: 'triggered', priority: 4 },
    },
    tags: {
      names: ['x-tags', 'tags', 'tag', 'ta'],
      value: 'rocket,backup',
      notify: { app: 'alerts', title: '🚀 triggered', metadata: { tags: ['backup'] } },
      echo: { message: 'triggered', tags: ['rocket', 'backup'] },
    },
    click: {
      names: ['x-click', 'click'],
      value: 'https://ci.example/812',
      notify: { app: 'alerts', title: 'triggered', url: 'https://ci.example/812' },
      echo: { message: 'triggered', click: 'https://ci.example/812' },
    },
    icon: {
      names: ['x-icon', 'icon'],
      value: 'https://ci.example/logo.png',
      notify: { app: 'alerts', title: 'triggered', image: 'https://ci.example/logo.png' },
      echo: { message: 'triggered', icon: 'https://ci.example/logo.png' },
    },
    attach: {
      names: ['x-attach', 'attach', 'a'],
      value: 'https://ci.example/report.pdf',
      notify: { app: 'alerts', title: 'triggered', buttons: [{ label: 'Open attachment', url: 'https://ci.example/report.pdf' }] },
      echo: { message: 'triggered', attachment: { name: 'report.pdf', url: 'https://ci.example/report.pdf' } },
    },
    filename: {
      names: ['x-filename', 'filename', 'file', 'f'],
      value: 'chart.png',
      with: { headers: { 'x-attach': 'https://ci.example/render?id=4' } },
      notify: { app: 'alerts', title: 'triggered', image: 'https://ci.example/render?id=4' },
      echo: { message: 'triggered', attachment: { name: 'chart.png', url: 'https://ci.example/render?id=4' } },
    },
    markdown: {
      names: ['x-markdown', 'markdown', 'md'],
      value: 'yes',
      with: { headers: { 'x-title': 'Build' }, body: '**3** tests failed' },
      notify: { app: 'alerts', title: 'Build', body: '**3** tests failed' },
      echo: { title: 'Build', message: '**3** tests failed', content_type: 'text/markdown' },
    },
    actions: {
      names: ['x-actions', 'actions', 'action'],
      value: 'view, Open run, https://ci.example/812',
      notify: { app: 'alerts', title: 'triggered', buttons: [{ label: 'Open run', url: 'https://ci.example/812' }] },
      echo: {
        message: 'triggered',
        actions: [{ action: 'view', label: 'Open run', url: 'https://ci.example/812', clear: false }],
      },
    },
    'sequence id': {
      names: ['x-sequence-id', 'sequence-id', 'sid'],
      value: 'build-812',
      notify: { app: 'alerts', id: 'build-812', title: 'triggered' },
      echo: { message: 'triggered', sequence_id: 'build-812' },
    },
  };

  const rows = Object.entries(CASES).flatMap(([parameter, sample]) =>
    sample.names.flatMap((name) => [
      [parameter, 'header', name],
      [parameter, 'query', name],
    ]),
  );

  test.each(rows)('%s as %s %s', (parameter, form, name) => {
    const sample = CASES[parameter]!;
    const parts: Parts = { ...sample.with };
    if (form === 'header') parts.headers = { ...parts.headers, [name]: sample.value };
    else parts.query = { ...parts.query, [name]: sample.value };
    expect(publish(parts)).toEqual({ topic: 'alerts', notify: sample.notify, echo: sample.echo });
  });

  test('a header wins over the query, whichever of its names each uses', () => {
    expect(notify({ headers: { t: 'From the header' }, query: { 'x-title': 'From the query' } })).toEqual({
      app: 'alerts',
      title: 'From the header',
    });
  });

  test('a blank header gives way to the next name, then to the query; values are trimmed', () => {
    expect(notify({ headers: { 'x-title': '  ', title: ' Second ' } })).toEqual({ app: 'alerts', title: 'Second' });
    expect(notify({ headers: { 'x-title': ' ' }, query: { t: '  From the query  ' } })).toEqual({
      app: 'alerts',
      title: 'From the query',
    });
  });

  test('query names are lower case only, as ntfy reads them', () => {
    expect(notify({ query: { Title: 'Not read' } })).toEqual({ app: 'alerts', title: 'triggered' });
  });

  test('parameters that steer ntfy’s storage and phone push are accepted and change nothing', () => {
    const plain = publish({ body: 'Backup done' });
    for (const [name, value] of [
      ['x-cache', 'no'],
      ['cache', 'no'],
      ['x-firebase', 'no'],
      ['firebase', 'no'],
      ['x-unifiedpush', '1'],
      ['unifiedpush', '1'],
      ['up', '1'],
      ['x-poll-id', 'abc'],
      ['poll-id', 'abc'],
    ] as const) {
      expect(publish({ body: 'Backup done', headers: { [name]: value } })).toEqual(plain);
      expect(publish({ body: 'Backup done', query: { [name]: value } })).toEqual(plain);
    }
  });
});

describe('encoded-words in headers (RFC 2047)', () => {
  test('base64 and quoted-printable words are decoded, in title, message and tags', () => {
    expect(
      publish({
        headers: {
          'x-title': '=?UTF-8?B?w4RwZmVsIHVuZCBCaXJuZW4=?=',
          'x-message': '=?utf-8?q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?=',
          'x-tags': '=?UTF-8?Q?warning,gr=C3=BCn?=',
        },
      }),
    ).toEqual({
      topic: 'alerts',
      notify: { app: 'alerts', title: '⚠️ Äpfel und Birnen', body: 'Grüße aus Köln', metadata: { tags: ['grün'] } },
      echo: { title: 'Äpfel und Birnen', message: 'Grüße aus Köln', tags: ['warning', 'grün'] },
    });
  });

  test('blanks between two encoded-words go; text around them stays', () => {
    expect(notify({ headers: { title: 'Build =?UTF-8?Q?f=C3=BC?= =?UTF-8?Q?r_main?= done' } })['title']).toBe('Build für main done');
  });

  test('ISO-8859-1 words are read; a charset not read leaves the value as written', () => {
    expect(notify({ headers: { title: '=?ISO-8859-1?Q?caf=E9?=' } })['title']).toBe('café');
    expect(notify({ headers: { title: '=?KOI8-R?B?8NLJ18XU?=' } })['title']).toBe('=?KOI8-R?B?8NLJ18XU?=');
  });

  test('query values are taken as they are', () => {
    expect(notify({ query: { title: '=?UTF-8?B?w4RwZmVs?=' } })['title']).toBe('=?UTF-8?B?w4RwZmVs?=');
  });
});

describe('the message', () => {
  test('the body of PUT and POST is the message, trimmed, and wins over the message parameter', () => {
    for (const method of ['PUT', 'POST'] as const) {
      expect(publish({ method, headers: { 'x-title': 'Backup', 'x-message': 'from the header' }, body: '\n  done in 4 min  \n' })).toEqual({
        topic: 'alerts',
        notify: { app: 'alerts', title: 'Backup', body: 'done in 4 min' },
        echo: { title: 'Backup', message: 'done in 4 min' },
      });
    }
  });

  test('a blank body leaves the message parameter; GET ignores its body', () => {
    expect(notify({ headers: { m: 'from the header' }, body: ' \n ' })).toEqual({ app: 'alerts', title: 'from the header' });
    expect(notify({ method: 'GET', query: { message: 'from the query' }, body: 'ignored' })).toEqual({
      app: 'alerts',
      title: 'from the query',
    });
  });

  test('a written \\n in a header or query message is a new line; in the body it stays as written', () => {
    expect(notify({ headers: { 'x-message': 'Disk full\\nsda1 at 99%' } })).toEqual({
      app: 'alerts',
      title: 'Disk full',
      body: 'sda1 at 99%',
    });
    expect(publish({ query: { m: 'one\\ntwo' } }).echo).toEqual({ message: 'one\ntwo' });
    expect(publish({ body: 'C:\\new' }).echo).toEqual({ message: 'C:\\new' });
  });

  test('a UTF-8 body is read; one that is not UTF-8 is 40011', () => {
    expect(notify({ body: Buffer.from('Grüße 🚀', 'utf8') })).toEqual({ app: 'alerts', title: 'Grüße 🚀' });
    expect(refused({ body: Buffer.from([0x48, 0x69, 0xff, 0xfe]) })).toEqual({
      code: 40011,
      http: 400,
      error: 'invalid message: message must be UTF-8 encoded',
    });
  });

  test('with no message anywhere, ntfy’s `triggered` is the title and the answer’s message', () => {
    expect(publish({})).toEqual({ topic: 'alerts', notify: { app: 'alerts', title: 'triggered' }, echo: { message: 'triggered' } });
  });
});

describe('title and body', () => {
  test('without a title, the first line is the title and the rest, trimmed, the body', () => {
    expect(notify({ body: 'Disk full\r\n\n  sda1 at 99%\n/var is the culprit  ' })).toEqual({
      app: 'alerts',
      title: 'Disk full',
      body: 'sda1 at 99%\n/var is the culprit',
    });
    expect(notify({ body: 'Only one line' })).toEqual({ app: 'alerts', title: 'Only one line' });
  });

  test('with a title, the whole message is the body; a title alone has no body', () => {
    expect(notify({ headers: { t: 'Disk full' }, body: 'sda1\nat 99%' })).toEqual({
      app: 'alerts',
      title: 'Disk full',
      body: 'sda1\nat 99%',
    });
    expect(publish({ headers: { t: 'Disk full' } })).toEqual({
      topic: 'alerts',
      notify: { app: 'alerts', title: 'Disk full' },
      echo: { title: 'Disk full', message: 'triggered' },
    });
  });
});

describe('priority', () => {
  test.each([
    ['1', {}, 1, { priority: 'low' }],
    ['min', {}, 1, { priority: 'low' }],
    ['2', {}, 2, { priority: 'low' }],
    ['LOW', {}, 2, { priority: 'low' }],
    ['3', {}, undefined, {}],
    ['Default', {}, undefined, {}],
    ['4', {}, 4, { priority: 'high' }],
    ['high', {}, 4, { priority: 'high' }],
    ['5', {}, 5, { priority: 'urgent', persistent: true }],
    ['max', {}, 5, { priority: 'urgent', persistent: true }],
    ['Urgent', {}, 5, { priority: 'urgent', persistent: true }],
  ])('%s', (value, _unused, echoed, fields) => {
    const translation = publish({ headers: { 'x-priority': value } });
    expect(translation.notify).toEqual({ app: 'alerts', title: 'triggered', ...fields });
    expect(translation.echo).toEqual({ message: 'triggered', ...(echoed === undefined ? {} : { priority: echoed }) });
  });

  test('anything else is 40007, naming the value', () => {
    for (const value of ['6', '0', 'important', '4.0']) {
      expect(refused({ query: { p: value } })).toEqual({
        code: 40007,
        http: 400,
        error: `invalid priority parameter, "${value}" is none of 1 to 5, min, low, default, high, max and urgent`,
      });
    }
  });

  test('the Priority header browsers and proxies add (RFC 9218) is no priority, and does not hide the others', () => {
    expect(notify({ headers: { priority: 'u=0, i' } })).toEqual({ app: 'alerts', title: 'triggered' });
    expect(notify({ headers: { priority: 'u=3' }, query: { p: 'max' } })).toEqual({
      app: 'alerts',
      title: 'triggered',
      priority: 'urgent',
      persistent: true,
    });
  });
});

describe('tags', () => {
  test('emoji tags go before the title in their order; the others into metadata; the answer has them all', () => {
    expect(publish({ headers: { 'x-title': 'Disk full', 'x-tags': ' warning, backup ,,rocket, , nightly ' } })).toEqual({
      topic: 'alerts',
      notify: { app: 'alerts', title: '⚠️ 🚀 Disk full', metadata: { tags: ['backup', 'nightly'] } },
      echo: { title: 'Disk full', message: 'triggered', tags: ['warning', 'backup', 'rocket', 'nightly'] },
    });
  });

  test('emoji go before a title taken from the message too; plain tags alone add no emoji', () => {
    expect(notify({ headers: { ta: 'rocket' }, body: 'Deployed\nv2.1 is live' })).toEqual({
      app: 'alerts',
      title: '🚀 Deployed',
      body: 'v2.1 is live',
    });
    expect(notify({ headers: { tags: 'backup' }, body: 'Done' })).toEqual({ app: 'alerts', title: 'Done', metadata: { tags: ['backup'] } });
  });
});

describe('Markdown', () => {
  test('a plain message has its Markdown marks escaped, so it shows as written', () => {
    const message = 'Use *args and **kwargs, snake_case, [x](https://y.example), `code` and C:\\temp';
    const body = notify({ headers: { t: 'Note' }, body: message })['body'] as string;
    expect(body).toBe('Use \\*args and \\*\\*kwargs, snake\\_case, \\[x\\](https://y.example), \\`code\\` and C:\\\\temp');
    expect(plainText(parseMarkdown(body))).toBe(message);
  });

  test('escaped text reads back as written, whatever it holds', () => {
    for (const message of ['**bold**', '_a_ __b__', '\\*not\\*', '[[[a]]](b)', '`*x*`', '***', '\\\\', 'a_b_c']) {
      const body = notify({ headers: { t: 'Note' }, body: message })['body'] as string;
      expect(plainText(parseMarkdown(body))).toBe(message);
    }
  });

  test('the title is plain text and is never escaped', () => {
    expect(notify({ body: '**Build** failed\n*3* tests' })).toEqual({ app: 'alerts', title: '**Build** failed', body: '\\*3\\* tests' });
  });

  test('asked for by markdown=1/yes/true or Content-Type text/markdown, the body goes as is', () => {
    const asked: Parts[] = [
      { headers: { 'x-markdown': '1' } },
      { headers: { markdown: 'TRUE' } },
      { query: { md: 'yes' } },
      { headers: { 'content-type': 'text/markdown' } },
      { headers: { 'content-type': 'Text/Markdown; charset=utf-8' } },
      { query: { 'content-type': 'text/markdown' } },
    ];
    for (const parts of asked) {
      expect(publish({ ...parts, body: 'Deploy\n**v2** is _live_' })).toEqual({
        topic: 'alerts',
        notify: { app: 'alerts', title: 'Deploy', body: '**v2** is _live_' },
        echo: { message: 'Deploy\n**v2** is _live_', content_type: 'text/markdown' },
      });
    }
  });

  test('markdown=no or another content type is plain', () => {
    const plain: Parts[] = [{ headers: { 'x-markdown': 'no' } }, { headers: { 'content-type': 'text/plain' } }];
    for (const parts of plain) {
      expect(publish({ ...parts, body: 'Deploy\n**v2**' })).toEqual({
        topic: 'alerts',
        notify: { app: 'alerts', title: 'Deploy', body: '\\*\\*v2\\*\\*' },
        echo: { message: 'Deploy\n**v2**' },
      });
    }
  });
});

describe('actions in the short form', () => {
  test('view and http, with method, headers, body and clear', () => {
    const translation = publish({
      headers: {
        'x-actions':
          'view, Open portal, https://example.com, clear=true; http, Close door, https://api.example.com/door, method=PUT, headers.Authorization=Bearer x, body={"a":1}',
      },
    });
    expect(translation.notify).toEqual({
      app: 'alerts',
      title: 'triggered',
      buttons: [
        { label: 'Open portal', url: 'https://example.com' },
        {
          label: 'Close door',
          callback: { url: 'https://api.example.com/door', method: 'PUT', headers: { Authorization: 'Bearer x' }, body: '{"a":1}' },
        },
      ],
    });
    expect(translation.echo).toEqual({
      message: 'triggered',
      actions: [
        { action: 'view', label: 'Open portal', url: 'https://example.com', clear: true },
        {
          action: 'http',
          label: 'Close door',
          url: 'https://api.example.com/door',
          method: 'PUT',
          headers: { Authorization: 'Bearer x' },
          body: '{"a":1}',
          clear: false,
        },
      ],
    });
    expect(Object.keys((translation.echo['actions'] as object[])[1]!)).toEqual([
      'action',
      'label',
      'url',
      'method',
      'headers',
      'body',
      'clear',
    ]);
  });

  test('an http action posts by default, with no headers or body', () => {
    expect(notify({ headers: { 'x-actions': 'HTTP, Ping, https://api.example.com/ping' } })['buttons']).toEqual([
      { label: 'Ping', callback: { url: 'https://api.example.com/ping', method: 'POST' } },
    ]);
  });

  test('quoted values hold commas, semicolons and an escaped quote', () => {
    expect(
      notify({
        headers: {
          'x-actions': `view, "Look, a label; with \\"quotes\\"" , https://example.com/a; http, 'Send it', https://example.com/b, body='{"a": 1, "b": 2}', method = post`,
        },
      })['buttons'],
    ).toEqual([
      { label: 'Look, a label; with "quotes"', url: 'https://example.com/a' },
      { label: 'Send it', callback: { url: 'https://example.com/b', method: 'POST', body: '{"a": 1, "b": 2}' } },
    ]);
  });

  test('every field may be written as key=value, in any order', () => {
    expect(
      publish({
        headers: {
          actions: 'label=Open, url=https://example.com/x, action=view, Clear=no; action=http, label=Go, url=https://example.com/go',
        },
      }).echo['actions'],
    ).toEqual([
      { action: 'view', label: 'Open', url: 'https://example.com/x', clear: false },
      { action: 'http', label: 'Go', url: 'https://example.com/go', clear: false },
    ]);
  });

  test('the buttons of an attachment come after the actions’ buttons', () => {
    expect(
      notify({ headers: { 'x-actions': 'view, Open, https://example.com', 'x-attach': 'https://example.com/log.txt' } })['buttons'],
    ).toEqual([
      { label: 'Open', url: 'https://example.com' },
      { label: 'Open attachment', url: 'https://example.com/log.txt' },
    ]);
  });

  refusesActions([
    [
      'view, A, https://a.example; view, B, https://b.example; view, C, https://c.example; view, D, https://d.example',
      'at most 3 actions are allowed (got 4)',
    ],
    ['broadcast, Take picture, extras.cmd=pic', 'broadcast actions are Android intents, which a desktop cannot send (use view or http)'],
    ['open, Go, https://example.com', 'action 1: "open" is not an action type (view or http)'],
    ['view, , https://example.com', 'action 1 needs a label'],
    ['view, Open', 'action 1 (view) needs a URL'],
    ['http, Open, url=', 'action 1 (http) needs a URL'],
    ['view, Open, https://example.com, colour=red', 'key "colour" is unknown (action, label, url, method, headers.<name>, body, clear)'],
    ['view, Open, https://example.com, extra', '"extra" is not a field: write key=value (url, method, headers.<name>, body, clear)'],
    ['view, Open, https://example.com, clear=maybe', 'clear=maybe is not allowed (true or false)'],
    ['view, "Open, https://example.com', 'the quote " opened at character 7 is never closed'],
    ['view, "Open" now, https://example.com', '"n" after the quoted value "Open": end a field with , or ;'],
    ['http, Get, https://example.com, method=get, body=x', 'action 1: a GET request cannot have a body'],
    ['http, Go, https://example.com, headers.=x', 'headers. needs a header name: headers.<name>=<value>'],
  ]);
});

describe('actions as JSON', () => {
  test('an array of objects, in any case, with method, headers, body and clear', () => {
    const actions = JSON.stringify([
      { action: 'View', label: 'Open', url: 'https://example.com', clear: true },
      {
        action: 'http',
        label: 'Restart',
        url: 'https://api.example.com/r',
        method: 'put',
        headers: { 'X-Key': 'k' },
        body: 'now',
        id: 'x',
      },
    ]);
    expect(publish({ headers: { 'x-actions': actions } })).toEqual({
      topic: 'alerts',
      notify: {
        app: 'alerts',
        title: 'triggered',
        buttons: [
          { label: 'Open', url: 'https://example.com' },
          { label: 'Restart', callback: { url: 'https://api.example.com/r', method: 'PUT', headers: { 'X-Key': 'k' }, body: 'now' } },
        ],
      },
      echo: {
        message: 'triggered',
        actions: [
          { action: 'view', label: 'Open', url: 'https://example.com', clear: true },
          {
            action: 'http',
            label: 'Restart',
            url: 'https://api.example.com/r',
            method: 'PUT',
            headers: { 'X-Key': 'k' },
            body: 'now',
            clear: false,
          },
        ],
      },
    });
  });

  refusesActions([
    ['[{"action": "view", "label": "Open"', 'the actions start with [ but are not a JSON array'],
    ['[1]', 'action 1 must be an object'],
    ['[{"action": "view", "label": 3, "url": "https://example.com"}]', 'action 1: label must be a string'],
    ['[{"action": "view", "label": "A", "url": "https://example.com", "clear": "yes"}]', 'action 1: clear must be true or false'],
    [
      '[{"action": "http", "label": "A", "url": "https://example.com", "headers": {"X": 1}}]',
      'action 1: headers must be an object of strings',
    ],
    ['[{"action": "broadcast", "label": "A"}]', 'broadcast actions are Android intents, which a desktop cannot send (use view or http)'],
    ['[{"action": "view", "url": "https://example.com"}]', 'action 1 needs a label'],
  ]);
});

describe('attachments', () => {
  test('an https picture is the banner’s picture', () => {
    expect(publish({ headers: { 'x-attach': 'https://cam.example/snapshots/Front%20Door.JPG' } })).toEqual({
      topic: 'alerts',
      notify: { app: 'alerts', title: 'triggered', image: 'https://cam.example/snapshots/Front%20Door.JPG' },
      echo: { message: 'triggered', attachment: { name: 'Front Door.JPG', url: 'https://cam.example/snapshots/Front%20Door.JPG' } },
    });
    for (const name of ['a.png', 'a.jpeg', 'a.gif', 'a.WEBP']) {
      expect(notify({ headers: { 'x-attach': `https://cam.example/${name}` } })['image']).toBe(`https://cam.example/${name}`);
    }
  });

  test('a picture over http, or another file, is a button that opens it', () => {
    for (const url of ['http://cam.example/front.jpg', 'https://ci.example/build.log', 'https://ci.example/picture.png.zip']) {
      expect(notify({ headers: { 'x-attach': url } })).toEqual({
        app: 'alerts',
        title: 'triggered',
        buttons: [{ label: 'Open attachment', url }],
      });
    }
  });

  test('the name: the file name given, else the last segment of the path, else `attachment`', () => {
    const attachment = (parts: Parts) => publish(parts).echo['attachment'];
    expect(attachment({ headers: { 'x-attach': 'https://x.example/a/b.txt', 'x-filename': 'log.txt' } })).toEqual({
      name: 'log.txt',
      url: 'https://x.example/a/b.txt',
    });
    expect(attachment({ headers: { 'x-attach': 'https://x.example/a/b.txt?v=1' } })).toEqual({
      name: 'b.txt',
      url: 'https://x.example/a/b.txt?v=1',
    });
    expect(attachment({ headers: { 'x-attach': 'https://x.example/' } })).toEqual({ name: 'attachment', url: 'https://x.example/' });
    expect(attachment({ headers: { 'x-attach': 'https://x.example' } })).toEqual({ name: 'attachment', url: 'https://x.example' });
  });

  test('an attach value that is not an http(s) URL is 40013', () => {
    for (const url of ['ftp://x.example/a.png', '/files/a.png', 'x.example/a.png', 'https://', 'https:x.example']) {
      expect(refused({ headers: { 'x-attach': url } })).toEqual({
        code: 40013,
        http: 400,
        error: 'invalid request: attachment URL is invalid',
      });
    }
  });

  test('a file name without attach (an upload) is 40014', () => {
    expect(refused({ headers: { filename: 'report.pdf' }, body: 'file contents' })).toEqual({
      code: 40014,
      http: 400,
      error: 'invalid request: attachments not allowed, Notifier keeps no uploaded files: give the file by its address with attach=<URL>',
    });
  });
});

describe('icons', () => {
  test('an https icon is the picture unless an attachment is; an http one is not used and not refused', () => {
    expect(notify({ headers: { 'x-icon': 'https://ci.example/icon.svg' } })['image']).toBe('https://ci.example/icon.svg');
    expect(notify({ headers: { 'x-icon': 'https://ci.example/icon.png', 'x-attach': 'https://cam.example/shot.jpg' } })['image']).toBe(
      'https://cam.example/shot.jpg',
    );
    expect(notify({ headers: { 'x-icon': 'https://ci.example/icon.png', 'x-attach': 'https://ci.example/log.txt' } })['image']).toBe(
      'https://ci.example/icon.png',
    );
    expect(publish({ headers: { 'x-icon': 'http://ci.example/icon.png' } })).toEqual({
      topic: 'alerts',
      notify: { app: 'alerts', title: 'triggered' },
      echo: { message: 'triggered', icon: 'http://ci.example/icon.png' },
    });
  });

  test('an icon that is not an http(s) URL is 40021', () => {
    for (const icon of ['data:image/png;base64,AAAA', 'icon.png', 'file:///tmp/i.png']) {
      expect(refused({ query: { icon } })).toEqual({ code: 40021, http: 400, error: 'invalid request: icon URL is invalid' });
    }
  });
});

describe('what Notifier cannot do', () => {
  const EMAIL = {
    code: 40001,
    http: 400,
    error:
      "e-mail notifications are not possible: Notifier shows notifications on this computer's screen and sends no e-mail (leave out the email parameter)",
  };
  const CALL = {
    code: 40035,
    http: 400,
    error:
      "phone calls are not possible: Notifier shows notifications on this computer's screen and places no phone calls (leave out the call parameter)",
  };

  test.each([
    ...['x-email', 'x-e-mail', 'email', 'e-mail', 'mail', 'e'].map((name) => [name, 'me@example.com', EMAIL] as const),
    ...['x-call', 'call'].map((name) => [name, 'yes', CALL] as const),
  ])('%s=%s is refused, as a header and in the query', (name, value, body) => {
    expect(refused({ headers: { [name]: value } })).toEqual(body);
    expect(refused({ query: { [name]: value } })).toEqual(body);
  });
});

describe('delayed delivery', () => {
  const now = new Date(2026, 11, 6, 20, 30, 0);
  const at = (value: string, where: 'headers' | 'query' = 'headers', name = 'x-delay') =>
    readNtfyPublish(requestOf({ [where]: { [name]: value } }), emoji, now).deliverAt;
  const minutes = (count: number) => new Date(now.getTime() + count * 60_000);

  test.each(['x-delay', 'delay', 'x-at', 'at', 'x-in', 'in'])('%s, as a header and in the query', (name) => {
    expect(at('30m', 'headers', name)).toEqual(minutes(30));
    expect(at('30m', 'query', name)).toEqual(minutes(30));
  });

  test('durations, Unix times and times of day, against the clock given', () => {
    expect(at('90s')).toEqual(new Date(now.getTime() + 90_000));
    expect(at('2 hours')).toEqual(minutes(120));
    expect(at('1h30m')).toEqual(minutes(90));
    expect(at('1 day')).toEqual(minutes(24 * 60));
    expect(at(String(Math.floor(now.getTime() / 1000) + 3600))).toEqual(minutes(60));
    expect(at('10pm')).toEqual(new Date(2026, 11, 6, 22, 0));
    expect(at('17:30')).toEqual(new Date(2026, 11, 7, 17, 30)); // past today: tomorrow
    expect(at('tomorrow, 9am')).toEqual(new Date(2026, 11, 7, 9, 0));
    expect(readNtfyPublish(requestOf({}), emoji, now).deliverAt).toBeUndefined();
  });

  test('what is not a time, under 10 seconds or over 3 days away is refused with ntfy codes', () => {
    const refusedAt = (value: string) => refusal(() => readNtfyPublish(requestOf({ headers: { 'x-delay': value } }), emoji, now));
    expect(refusedAt('soon')).toEqual({
      code: 40004,
      http: 400,
      error:
        'invalid delay parameter: unable to parse delay, "soon" is not a duration (30m, 2h), a Unix time or a time of day (10am, 17:30)',
    });
    for (const value of ['25:00', '13pm', '9:75']) expect(refusedAt(value)['code']).toBe(40004);
    expect(refusedAt('5s')).toEqual({
      code: 40005,
      http: 400,
      error: 'invalid delay parameter: too small, at least 10 seconds (send it now instead)',
    });
    expect(refusedAt('1700000000')['code']).toBe(40005);
    expect(refusedAt('4 days')).toEqual({ code: 40006, http: 400, error: 'invalid delay parameter: too large, at most 3 days' });
  });
});

describe('sequence ids', () => {
  test('1 to 64 letters, digits, - and _; anything else is 400', () => {
    expect(notify({ headers: { 'x-sequence-id': 'A'.repeat(64) } })['id']).toBe('A'.repeat(64));
    for (const id of ['A'.repeat(65), 'build 812', 'build.812', 'ü']) {
      expect(refused({ query: { sid: id } })).toEqual({
        code: 40000,
        http: 400,
        error: `invalid request: sequence ID invalid, ${JSON.stringify(id)} is not 1 to 64 letters, digits, - and _`,
      });
    }
  });
});

describe('topics', () => {
  test('1 to 64 letters, digits, - and _', () => {
    expect(publish({ topic: 'a' }).topic).toBe('a');
    expect(publish({ topic: 'Build_812-x'.padEnd(64, 'z') }).notify['app']).toBe('Build_812-x'.padEnd(64, 'z'));
    for (const topic of ['', 'z'.repeat(65), 'my.topic', 'my topic', 'thé', 'a/b']) {
      expect(refused({ topic })).toEqual({ code: 40009, http: 400, error: 'invalid request: topic invalid' });
    }
  });

  test('the reserved names are ntfy’s, the daemon’s and the relay’s first path segments, each refused', () => {
    expect(NTFY_RESERVED_TOPICS).toEqual([
      ...['v1', 'app', 'docs', 'static', 'file', 'account', 'settings', 'login', 'signup', 'metrics'],
      ...['message', 'version', 'health', 'healthz', 'ready', 'readyz', 'mcp', 'register', 'token', 'revoke', 'authorize', 'activate'],
      'device_authorization',
    ]);
    for (const topic of NTFY_RESERVED_TOPICS) {
      expect(refused({ topic })).toEqual({ code: 40010, http: 400, error: 'invalid request: topic name is disallowed' });
    }
  });
});

describe('ntfy’s message JSON (POST /)', () => {
  test('every field', () => {
    const translation = publishJSON({
      topic: 'backups',
      message: 'Nightly backup\n3 files *skipped*',
      title: 'Backup',
      tags: ['warning', 'nas'],
      priority: 4,
      click: 'https://nas.example/logs',
      actions: [{ action: 'view', label: 'Logs', url: 'https://nas.example/logs' }],
      attach: 'https://nas.example/report.pdf',
      filename: 'report.pdf',
      markdown: false,
      icon: 'https://nas.example/icon.png',
      sequence_id: 'nightly',
      cache: 'no',
      firebase: 'no',
      unknown: 'ignored',
    });
    expect(translation).toEqual({
      topic: 'backups',
      notify: {
        app: 'backups',
        id: 'nightly',
        title: '⚠️ Backup',
        body: 'Nightly backup\n3 files \\*skipped\\*',
        priority: 'high',
        url: 'https://nas.example/logs',
        image: 'https://nas.example/icon.png',
        buttons: [
          { label: 'Logs', url: 'https://nas.example/logs' },
          { label: 'Open attachment', url: 'https://nas.example/report.pdf' },
        ],
        metadata: { tags: ['nas'] },
      },
      echo: {
        title: 'Backup',
        message: 'Nightly backup\n3 files *skipped*',
        priority: 4,
        tags: ['warning', 'nas'],
        click: 'https://nas.example/logs',
        icon: 'https://nas.example/icon.png',
        actions: [{ action: 'view', label: 'Logs', url: 'https://nas.example/logs', clear: false }],
        attachment: { name: 'report.pdf', url: 'https://nas.example/report.pdf' },
        sequence_id: 'nightly',
      },
    });
  });

  test('headers and query beside the JSON say what it does not (as Apprise sends them); the JSON wins', () => {
    const request: NtfyRequest = {
      method: 'POST',
      topic: undefined,
      headers: { 'x-title': 'Header title', 'x-priority': '5', 'x-click': 'https://example.com/run/7' },
      query: new URLSearchParams({ tags: 'rocket' }),
      body: Buffer.from(JSON.stringify({ topic: 'backups', title: 'JSON title', message: 'Done', markdown: true })),
    };
    expect(readNtfyPublish(request, emoji)).toEqual({
      topic: 'backups',
      notify: {
        app: 'backups',
        title: '🚀 JSON title',
        body: 'Done',
        priority: 'urgent',
        persistent: true,
        url: 'https://example.com/run/7',
      },
      echo: {
        title: 'JSON title',
        message: 'Done',
        priority: 5,
        tags: ['rocket'],
        click: 'https://example.com/run/7',
        content_type: 'text/markdown',
      },
    });
  });

  test('priority 0 and null fields are absent; 1 to 5 are priorities', () => {
    expect(publishJSON({ topic: 't', priority: 0, title: null, tags: null, actions: null }).notify).toEqual({
      app: 't',
      title: 'triggered',
    });
    expect(publishJSON({ topic: 't', priority: 5 }).notify).toEqual({ app: 't', title: 'triggered', priority: 'urgent', persistent: true });
    expect(refusal(() => publishJSON({ topic: 't', priority: 7 }))).toEqual({
      code: 40007,
      http: 400,
      error: 'invalid priority parameter, "7" is none of 1 to 5, min, low, default, high, max and urgent',
    });
  });

  test('a body that is not a JSON object is 40017', () => {
    const error = { code: 40017, http: 400, error: 'invalid request: request body must be message JSON' };
    for (const body of ['', 'Backup done', '[{"topic": "t"}]', 'null', '"t"', '{"topic": "t"', Buffer.from([0x7b, 0xff, 0x7d])]) {
      expect(refused({ topic: undefined, body })).toEqual(error);
    }
  });

  test('a field of the wrong type is 40017, naming it', () => {
    const refusedField = (json: object) => refusal(() => publishJSON({ topic: 't', ...json }));
    const error = (why: string) => ({ code: 40017, http: 400, error: `invalid request: request body must be message JSON, ${why}` });
    expect(refusedField({ title: 3 })).toEqual(error('title must be a string'));
    expect(refusedField({ sequence_id: 812 })).toEqual(error('sequence_id must be a string'));
    expect(refusedField({ tags: 'a,b' })).toEqual(error('tags must be an array of strings'));
    expect(refusedField({ priority: 'high' })).toEqual(error('priority must be a whole number from 1 to 5'));
    expect(refusedField({ priority: 2.5 })).toEqual(error('priority must be a whole number from 1 to 5'));
    expect(refusedField({ markdown: 'yes' })).toEqual(error('markdown must be true or false'));
    expect(refusedField({ actions: { action: 'view' } })).toEqual(actionsRefusal('actions must be an array of objects'));
  });

  test('the topic is required and checked', () => {
    expect(refusal(() => publishJSON({ message: 'x' }))).toEqual({ code: 40009, http: 400, error: 'invalid request: topic invalid' });
    expect(refusal(() => publishJSON({ topic: 'a.b' }))).toEqual({ code: 40009, http: 400, error: 'invalid request: topic invalid' });
    expect(refusal(() => publishJSON({ topic: 'docs' }))).toEqual({
      code: 40010,
      http: 400,
      error: 'invalid request: topic name is disallowed',
    });
  });

  test('e-mail and call are refused, a delay is read; empty ones are absent', () => {
    expect(refusal(() => publishJSON({ topic: 't', email: 'me@example.com' }))['code']).toBe(40001);
    expect(refusal(() => publishJSON({ topic: 't', call: 'yes' }))['code']).toBe(40035);
    expect(publishJSON({ topic: 't', delay: '10m' }).deliverAt!.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(refusal(() => publishJSON({ topic: 't', delay: 1700000000 }))['code']).toBe(40005);
    expect(publishJSON({ topic: 't', email: '', call: null, delay: '' }).notify).toEqual({ app: 't', title: 'triggered' });
  });

  test('a broadcast action, an unsafe attachment or icon are refused as with headers', () => {
    expect(refusal(() => publishJSON({ topic: 't', actions: [{ action: 'broadcast', label: 'x' }] }))).toEqual(
      actionsRefusal('broadcast actions are Android intents, which a desktop cannot send (use view or http)'),
    );
    expect(refusal(() => publishJSON({ topic: 't', attach: 'file:///etc/passwd' }))['code']).toBe(40013);
    expect(refusal(() => publishJSON({ topic: 't', icon: 'javascript:alert(1)' }))['code']).toBe(40021);
  });
});

describe('the answer', () => {
  test('id, time, expiry in 12 hours, event and topic, then what the request gave, in ntfy’s order', () => {
    const translation = publish({
      headers: {
        'x-title': 'Disk full',
        'x-priority': 'urgent',
        'x-tags': 'warning,sda1',
        'x-click': 'https://nas.example',
        'x-icon': 'https://nas.example/i.png',
        'x-actions': 'view, Open, https://nas.example',
        'x-attach': 'https://nas.example/df.txt',
        'x-markdown': 'true',
        'x-sequence-id': 'disk',
      },
      body: 'sda1 at *99%*',
    });
    const answer = ntfyMessage(translation, 'aBc123', 1_700_000_000);
    expect(answer).toEqual({
      id: 'aBc123',
      time: 1_700_000_000,
      expires: 1_700_043_200,
      event: 'message',
      topic: 'alerts',
      title: 'Disk full',
      message: 'sda1 at *99%*',
      priority: 5,
      tags: ['warning', 'sda1'],
      click: 'https://nas.example',
      icon: 'https://nas.example/i.png',
      actions: [{ action: 'view', label: 'Open', url: 'https://nas.example', clear: false }],
      attachment: { name: 'df.txt', url: 'https://nas.example/df.txt' },
      content_type: 'text/markdown',
      sequence_id: 'disk',
    });
    expect(Object.keys(answer)).toEqual([
      'id',
      'time',
      'expires',
      'event',
      'topic',
      'title',
      'message',
      'priority',
      'tags',
      'click',
      'icon',
      'actions',
      'attachment',
      'content_type',
      'sequence_id',
    ]);
  });

  test('a bare publish answers with the message ntfy makes up', () => {
    expect(ntfyMessage(publish({}), 'x', 10)).toEqual({
      id: 'x',
      time: 10,
      expires: 43_210,
      event: 'message',
      topic: 'alerts',
      message: 'triggered',
    });
  });
});

describe('the error catalogue', () => {
  test('each error has ntfy’s code, its status and its message', () => {
    const bodies = [
      ntfyErrors.badRequest('no'),
      ntfyErrors.unauthorized(),
      ntfyErrors.forbidden(),
      ntfyErrors.notFound(),
      ntfyErrors.tooLarge(),
      ntfyErrors.tooManyRequests(),
    ].map(ntfyErrorBody);
    expect(bodies).toEqual([
      { code: 40000, http: 400, error: 'invalid request: no' },
      { code: 40101, http: 401, error: 'unauthorized' },
      { code: 40301, http: 403, error: 'forbidden' },
      { code: 40401, http: 404, error: 'page not found' },
      { code: 41301, http: 413, error: 'message too large' },
      { code: 42901, http: 429, error: 'limit reached: too many requests' },
    ]);
  });

  test('every constructor makes an NtfyError whose code starts with its status', () => {
    const samples: { [K in keyof typeof ntfyErrors]: Parameters<(typeof ntfyErrors)[K]> } = {
      badRequest: ['x'],
      emailUnsupported: [],
      delayUnreadable: ['soon'],
      delayTooSmall: [],
      delayTooLarge: [],
      priorityInvalid: ['x'],
      topicInvalid: [],
      topicDisallowed: [],
      messageNotUTF8: [],
      attachmentURLInvalid: [],
      uploadUnsupported: [],
      messageJSONInvalid: [],
      actionsInvalid: ['x'],
      tooManyActions: [4, 3],
      broadcastUnsupported: [],
      iconURLInvalid: [],
      sequenceIdInvalid: ['x'],
      phoneCallsUnsupported: [],
      unauthorized: [],
      forbidden: [],
      notFound: [],
      tooLarge: [],
      tooManyRequests: [],
    };
    for (const [name, args] of Object.entries(samples)) {
      const error = (ntfyErrors[name as keyof typeof ntfyErrors] as (...a: unknown[]) => NtfyError)(...args);
      expect(error).toBeInstanceOf(NtfyError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('NtfyError');
      expect(String(error.code).slice(0, 3)).toBe(String(error.http));
      expect(error.message).not.toBe('');
    }
  });
});
