// protocol/desktop-programs.ts: how another program is named as an app, which programs are left out by default,
// and a banner body's markup read into the Markdown History draws — never markup of the sender's own.

import { describe, expect, test } from '@jest/globals';
import { bodyFromMarkup, desktopAppId, excludedByDefault } from '../../protocol/desktop-programs.js';
import { parseMarkdown } from '../../protocol/markdown.js';

describe('programs', () => {
  test('named by their desktop entry, else their application name, as an app id of their own', () => {
    expect(desktopAppId({ appName: 'Evolution', desktopEntry: 'org.gnome.Evolution' })).toBe('desktop.org.gnome.evolution');
    expect(desktopAppId({ appName: 'Thunderbird Mail', desktopEntry: 'thunderbird.desktop' })).toBe('desktop.thunderbird');
    expect(desktopAppId({ appName: 'My Chat ✨ App' })).toBe('desktop.my-chat-app');
    expect(desktopAppId({ appName: '../../etc' })).toBe('desktop.etc');
    expect(desktopAppId({ appName: '' })).toBe('desktop.unnamed');
    expect(desktopAppId({ appName: 'x'.repeat(200) })).toBe(`desktop.${'x'.repeat(64)}`);
  });

  test('password managers, two-factor apps, keyrings and clipboard managers are left out by default, by entry or name', () => {
    expect(excludedByDefault({ appName: 'KeePassXC' })).toMatch(/password manager/);
    expect(excludedByDefault({ appName: 'anything', desktopEntry: 'com.belmoussaoui.Authenticator' })).toMatch(/two-factor/);
    expect(excludedByDefault({ appName: 'Klipper' })).toMatch(/clipboard/);
    expect(excludedByDefault({ appName: 'Evolution', desktopEntry: 'org.gnome.Evolution' })).toBeUndefined();
  });
});

describe('a body’s markup', () => {
  test('bold, italic, links that may open and image text; entities decoded; the rest as text', () => {
    expect(bodyFromMarkup('<b>Ann</b> &amp; <i>Bo</i>: <a href="https://x.example/a(1)">see</a> <img src="p.png" alt="[pic]"/>')).toEqual({
      body: '**Ann** & *Bo*: [see](https://x.example/a%281%29) \\[pic\\]',
      link: 'https://x.example/a(1)',
    });
    expect(bodyFromMarkup('line<br/>next &lt;b&gt; &#x1F600; &#128512;')).toEqual({ body: 'line\nnext <b> 😀 😀' });
  });

  test('a link that may not open is its label alone; markup of the sender’s own is text, never markup', () => {
    expect(bodyFromMarkup('<a href="javascript:alert(1)">click</a> <a href="file:///etc/passwd">f</a>')).toEqual({ body: 'click f' });
    const { body } = bodyFromMarkup('*not bold* [not](https://a.example) <u>under</u> `code` <script>x</script>');
    expect(body).toBe('\\*not bold\\* \\[not\\](https://a.example) under \\`code\\` x');
    // Read back as History reads it: one plain run, no emphasis and no link.
    expect(parseMarkdown(body)).toEqual([
      { text: '*not bold* [not](https://a.example) under `code` x', bold: false, italic: false, code: false, link: false },
    ]);
  });

  test('an <a> never closed still ends its link', () => {
    expect(bodyFromMarkup('<a href="https://a.example">open').body).toBe('[open](https://a.example)');
  });
});
