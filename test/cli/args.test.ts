// The small parsers of the `notifier` command line (cli/args.ts) and the port file rule (cli/client.ts).

import { describe, expect, test } from '@jest/globals';
import os from 'node:os';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import {
  UsageError,
  clockTime,
  followUpAfter,
  keyValues,
  localPathArgument,
  mergeOnTop,
  nonNegativeNumber,
  notifyFollowUp,
  numberIn,
  parseButton,
  parsePort,
  parseReminder,
  sortedJson,
  wordValue,
} from '../../cli/args.js';
import { portFromFile } from '../../cli/client.js';
import { findService } from '../../cli/local-service.js';
import { defaultSupportDir } from '../../daemon/support-dir.js';
import { DEFAULT_PORT } from '../../protocol/limits.js';

describe('KEY=VALUE words', () => {
  test('a value that reads as JSON keeps its type; anything else is a string', () => {
    expect(wordValue('true')).toBe(true);
    expect(wordValue('42')).toBe(42);
    expect(wordValue('0.5')).toBe(0.5);
    expect(wordValue('null')).toBeNull();
    expect(wordValue('"42"')).toBe('42');
    expect(wordValue('[1,"a"]')).toEqual([1, 'a']);
    expect(wordValue('{"a":1}')).toEqual({ a: 1 });
    expect(wordValue('Glass')).toBe('Glass');
    expect(wordValue('')).toBe('');
    expect(wordValue('07:30')).toBe('07:30');
  });

  test('the key ends at the first =; a word without = or without a key is refused', () => {
    expect(keyValues(['a=1', 'b=x=y', 'c='])).toEqual({ a: 1, b: 'x=y', c: '' });
    expect(() => keyValues(['muteAllSounds'])).toThrow(new UsageError("'muteAllSounds' is not KEY=VALUE"));
    expect(() => keyValues(['=5'])).toThrow(UsageError);
  });
});

describe('--button Label=target', () => {
  test('each target form becomes its button kind', () => {
    expect(parseButton('Open=https://example.com/?q=a=b')).toEqual({ label: 'Open', url: 'https://example.com/?q=a=b' });
    expect(parseButton('Mail=mailto:me@example.com')).toEqual({ label: 'Mail', url: 'mailto:me@example.com' });
    expect(parseButton('Build=cmd:make -j4')).toEqual({ label: 'Build', command: 'make -j4' });
    expect(parseButton('Tidy=script:tidy.sh')).toEqual({ label: 'Tidy', script: 'tidy.sh' });
    expect(parseButton('Log=shortcut:Log It')).toEqual({ label: 'Log', shortcut: 'Log It' });
    expect(parseButton('Ack=cb:{"n":1}')).toEqual({ label: 'Ack', callback: { payload: { n: 1 } } });
    expect(parseButton('Ack=cb:"text"')).toEqual({ label: 'Ack', callback: { payload: 'text' } });
    expect(parseButton('Ack=cb:')).toEqual({ label: 'Ack', callback: {} });
    expect(parseButton('Answer=reply:Type here')).toEqual({ label: 'Answer', reply: { placeholder: 'Type here' } });
    expect(parseButton('Answer=reply:a=b: c')).toEqual({ label: 'Answer', reply: { placeholder: 'a=b: c' } });
    expect(parseButton('Answer=reply:')).toEqual({ label: 'Answer', reply: {} });
    expect(parseButton('Answer=reply:   ')).toEqual({ label: 'Answer', reply: {} });
  });

  test('a bare label is a plain button that closes the banner', () => {
    expect(parseButton('Later')).toEqual({ label: 'Later' });
    expect(parseButton('Not now')).toEqual({ label: 'Not now' });
  });

  test('an empty label, nothing after =, a cb: payload that is not JSON and a bare word are refused', () => {
    for (const text of ['', ' ', '=https://example.com', 'Later=', 'Ack=cb:{oops', 'Go=somewhere']) {
      expect(() => parseButton(text)).toThrow(InvalidArgumentError);
    }
  });
});

describe('--reminder Title|ISO8601', () => {
  test('splits on the last |; a bare text is the title only', () => {
    expect(parseReminder('Pay rent|2026-12-01')).toEqual({ title: 'Pay rent', due: '2026-12-01' });
    expect(parseReminder('A|B|2026-12-01T09:00:00Z')).toEqual({ title: 'A|B', due: '2026-12-01T09:00:00Z' });
    expect(parseReminder('Just a title')).toEqual({ title: 'Just a title' });
    expect(parseReminder('|2026-12-01')).toEqual({ due: '2026-12-01' });
  });
});

describe('follow-up flags', () => {
  test('after is seconds or 90s, 10m, 2h, from 5 seconds to 7 days', () => {
    expect(followUpAfter('5')).toBe(5);
    expect(followUpAfter('90s')).toBe(90);
    expect(followUpAfter('10m')).toBe(600);
    expect(followUpAfter('1.5h')).toBe(5400);
    expect(followUpAfter('604800')).toBe(604800);
    for (const text of ['4', '604801', '8d', 'soon', '']) expect(() => followUpAfter(text)).toThrow(InvalidArgumentError);
  });

  test('exactly one action with after; input only with a shortcut or a script', () => {
    expect(notifyFollowUp({})).toBeUndefined();
    expect(notifyFollowUp({ after: 60, ref: 'ack' })).toEqual({ after: 60, actionRef: 'ack' });
    expect(notifyFollowUp({ after: 60, script: 'x.sh', input: 'i' })).toEqual({
      after: 60,
      action: { label: 'x.sh', kind: 'script', script: 'x.sh', input: 'i' },
    });
    expect(notifyFollowUp({ after: 60, command: 'echo' })).toEqual({
      after: 60,
      action: { label: 'Follow-up', kind: 'command', command: 'echo' },
    });
    expect(() => notifyFollowUp({ after: 60 })).toThrow(/needs an action/);
    expect(() => notifyFollowUp({ shortcut: 's' })).toThrow(/needs --follow-up-after/);
    expect(() => notifyFollowUp({ after: 60, shortcut: 's', ref: 'r' })).toThrow(/not --follow-up-shortcut and --follow-up-ref/);
    expect(() => notifyFollowUp({ after: 60, ref: 'r', input: 'i' })).toThrow(/--follow-up-input goes with/);
  });
});

describe('numbers and times', () => {
  test('ports are 1 to 65535', () => {
    expect(parsePort('1')).toBe(1);
    expect(parsePort('65535')).toBe(65535);
    for (const text of ['0', '65536', 'http', '', '-1', '80.5']) expect(() => parsePort(text)).toThrow(InvalidArgumentError);
  });

  test('ranges: snooze minutes are more than 0 and at most 43200; --timeout 0 is the number 0', () => {
    const minutes = numberIn(0, 43200, { minExclusive: true });
    expect(minutes('0.5')).toBe(0.5);
    expect(minutes('43200')).toBe(43200);
    for (const text of ['0', '43201', '-1', 'ten', '1e3', '']) expect(() => minutes(text)).toThrow(InvalidArgumentError);
    expect(nonNegativeNumber('0')).toBe(0);
    expect(() => nonNegativeNumber('soon')).toThrow(InvalidArgumentError);
  });

  test('quiet --until takes HH:MM only', () => {
    expect(clockTime('07:30')).toBe('07:30');
    expect(clockTime('23:59')).toBe('23:59');
    for (const text of ['7pm', '7:30', '24:00', '12:60', '0730']) expect(() => clockTime(text)).toThrow(InvalidArgumentError);
  });

  test('the port file: digits only (white space trimmed), else no port', () => {
    expect(portFromFile('48617')).toBe(48617);
    expect(portFromFile(' 5000\n')).toBe(5000);
    for (const text of [undefined, '', 'abc', '80a', '0', '70000', '-5']) expect(portFromFile(text)).toBeUndefined();
  });

  test("without a port file the default port is for the platform's own folder only", async () => {
    // XDG_DATA_HOME (and APPDATA) in a folder that does not exist: the platform's folder has no port file.
    const data = path.join(os.tmpdir(), `notifier-no-such-folder-${process.pid}`);
    const env = { XDG_DATA_HOME: data, APPDATA: data };
    const platform = await findService({}, env);
    expect(platform.supportDir).toBe(defaultSupportDir(env));
    expect([platform.port, platform.portKnown]).toEqual([DEFAULT_PORT, false]);
    // The same folder named by NOTIFIER_SUPPORT_DIR or by the caller is still the platform's.
    expect((await findService({}, { ...env, NOTIFIER_SUPPORT_DIR: platform.supportDir })).port).toBe(DEFAULT_PORT);
    expect((await findService({ supportDir: platform.supportDir }, env)).port).toBe(DEFAULT_PORT);
    // A folder of its own (another instance's, now stopped): no port, nothing to call.
    const own = path.join(data, 'elsewhere');
    expect(await findService({}, { ...env, NOTIFIER_SUPPORT_DIR: own })).toMatchObject({
      supportDir: own,
      port: undefined,
      portKnown: false,
    });
    expect((await findService({ supportDir: own }, env)).port).toBeUndefined();
    expect((await findService({ supportDir: own, port: 5000 }, env)).port).toBe(5000);
  });
});

describe('bodies and output', () => {
  test('flags merge on top of a --json body, objects one level deep', () => {
    expect(
      mergeOnTop({ app: 'a', title: 'x', metadata: { a: 1 }, buttons: [{ label: 'A' }] }, { title: 'y', metadata: { b: 2 }, buttons: [] }),
    ).toEqual({
      app: 'a',
      title: 'y',
      metadata: { a: 1, b: 2 },
      buttons: [],
    });
  });

  test('relative file paths are resolved against the current folder; URLs, ~ and absolute paths are kept', () => {
    expect(localPathArgument('pic.png')).toBe(path.resolve('pic.png'));
    expect(localPathArgument('./a/b.png')).toBe(path.resolve('a/b.png'));
    for (const kept of ['/tmp/a.png', '~/a.png', 'https://example.com/a.png', 'data:image/png;base64,AAAA', 'file:///tmp/a.png']) {
      expect(localPathArgument(kept)).toBe(kept);
    }
  });

  test('output JSON has every object sorted by key and arrays in order', () => {
    expect(sortedJson({ b: 1, a: [{ d: 1, c: 2 }, 3] })).toBe(
      '{\n  "a": [\n    {\n      "c": 2,\n      "d": 1\n    },\n    3\n  ],\n  "b": 1\n}',
    );
  });
});
