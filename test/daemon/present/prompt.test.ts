import { describe, expect, test } from '@jest/globals';
import { replyWindowText } from '../../../daemon/present/prompt.js';

// The reply window's text (daemon/present/prompt.ts): who asks, then the notification, wrapped to a readable width.

describe('the reply window text', () => {
  test('a relayed notification names the agent and the relay; long lines wrap at words; a long body is cut', () => {
    const body = `${'word '.repeat(20).trim()}\n${'x'.repeat(700)}`;
    const { title, lines } = replyWindowText({ appName: 'Claude', relayed: true, title: 'Ship it?', body, placeholder: 'yes or no' });
    expect(title).toBe('Reply to Claude');
    expect(lines.slice(0, 5)).toEqual([
      'Claude asks, through the cloud relay:',
      '',
      'Ship it?',
      `${'word '.repeat(14).trim()}`,
      `${'word '.repeat(6).trim()}`,
    ]);
    expect(lines[5]).toBe(`${'x'.repeat(600 - 100)}…`);
    expect(lines.at(-1)).toBe('(yes or no)');
    expect(Math.max(...lines.slice(0, 5).map((line) => line.length))).toBeLessThanOrEqual(72);
  });
});
