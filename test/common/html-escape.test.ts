// common/html-escape.ts: text made safe for HTML, as element content and as a quoted attribute value.

import { expect, test } from '@jest/globals';
import { escapeHtml } from '../../common/html-escape.js';

test('the five characters HTML gives a meaning become entities; everything else stays', () => {
  expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
  );
  expect(escapeHtml('Plain text, ünïcode and 👍 stay as they are.')).toBe('Plain text, ünïcode and 👍 stay as they are.');
  expect(escapeHtml('')).toBe('');
});

test('an entity already written is escaped again: the text shows as it was given', () => {
  expect(escapeHtml('&amp; &lt;')).toBe('&amp;amp; &amp;lt;');
});

test('an escaped value cannot leave its quoted attribute or open an element', () => {
  const value = escapeHtml(`" onmouseover="alert(1)' x='<script>`);
  expect(value).not.toMatch(/["'<>]/);
});
