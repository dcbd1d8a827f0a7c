import { describe, expect, test } from '@jest/globals';
import { keyParts, recordKey } from '../../protocol/record-key.js';

describe('recordKey and keyParts', () => {
  test.each([
    ['mail', 'm1'],
    ['app', ''],
    ['app', 'an id with\u0000a NUL'],
    ['cloud.build-bot', 'r_0123456789abcdef01234567'],
  ])('%j and %j make one key, and the key gives them back', (app, id) => {
    expect(keyParts(recordKey(app, id))).toEqual({ app, id });
  });

  test('two apps with the same id make two keys', () => {
    expect(new Set([recordKey('mail', 'x'), recordKey('chat', 'x')]).size).toBe(2);
  });
});
