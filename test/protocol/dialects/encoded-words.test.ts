// RFC 2047 encoded-words (protocol/dialects/encoded-words.ts), the leaf ntfy's header reading uses; how a whole
// publish reads them is in ntfy.test.ts ("encoded-words in headers").

import { expect, test } from '@jest/globals';
import { decodeEncodedWords } from '../../../protocol/dialects/encoded-words.js';

const CASES: ReadonlyArray<[why: string, value: string, decoded: string]> = [
  ['no encoded-word: the value itself', 'Backup done', 'Backup done'],
  ['"=" and "?" alone are no encoded-word', 'a = b ? c', 'a = b ? c'],
  ['B in lower case', '=?utf-8?b?w4RwZmVs?=', 'Äpfel'],
  ['a language after the charset (RFC 2231)', '=?UTF-8*de?Q?K=C3=B6ln?=', 'Köln'],
  ['Q: "_" is a space', '=?US-ASCII?Q?a_b?=', 'a b'],
  ['blanks between two words go', '=?UTF-8?Q?a?=   =?UTF-8?Q?b?=', 'ab'],
  ['other text between two words stays', '=?UTF-8?Q?a?= and =?UTF-8?Q?b?=', 'a and b'],
  ['a word that is not UTF-8 leaves the whole value as written', 'x =?UTF-8?B?/w==?= y', 'x =?UTF-8?B?/w==?= y'],
  ['a charset not read leaves the whole value as written', '=?UTF-8?Q?ok?= =?KOI8-R?B?8NLJ18XU?=', '=?UTF-8?Q?ok?= =?KOI8-R?B?8NLJ18XU?='],
];

test.each(CASES)('%s', (_why, value, decoded) => {
  expect(decodeEncodedWords(value)).toBe(decoded);
});
