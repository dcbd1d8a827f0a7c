// Other programs' notifications in History (docs/desktop.md, "Every desktop notification in History"): how a program
// is named as an app, what the person may keep of it, the programs left out until the person says otherwise, and
// a banner body's markup read into the Markdown History draws. Pure: the daemon and the person's app share it.

import { escapeMarkdown } from './markdown.js';
import { DESKTOP_APP_PREFIX, isOpenableLink } from './notification-rules.js';

/** The longest program slug: desktop entry ids are reverse domain names, rarely longer. */
const MAX_SLUG_CHARS = 64;

/**
 * The app id of a program: its desktop entry (the hint names its `.desktop` file) when it sent one, else its
 * application name, in lower case with anything but letters, digits, `.` and `-` as `-`.
 */
export function desktopAppId(program: { desktopEntry?: string; appName: string }): string {
  const name = (program.desktopEntry ?? program.appName)
    .toLowerCase()
    .replace(/\.desktop$/, '')
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_SLUG_CHARS);
  return `${DESKTOP_APP_PREFIX}${name || 'unnamed'}`;
}

/** What the person keeps of one program's notifications. */
export const PROGRAM_KEEPS = ['all', 'titles', 'none'] as const;
export type ProgramKeep = (typeof PROGRAM_KEEPS)[number];

/**
 * Programs whose notifications are not kept until the person says otherwise: their banners can show secrets. Each
 * is matched by its desktop entry or its application name (lower case).
 */
export const EXCLUDED_BY_DEFAULT: ReadonlyArray<{ names: readonly string[]; why: string }> = [
  {
    names: ['org.keepassxc.keepassxc', 'keepassxc', 'com.bitwarden.desktop', 'bitwarden', '1password', 'proton-pass', 'proton pass'],
    why: 'a password manager: its banners can name accounts and say what was copied',
  },
  {
    names: ['com.belmoussaoui.authenticator', 'authenticator', 'authy', 'authy desktop'],
    why: 'a two-factor app: its banners can show one-time codes',
  },
  {
    names: ['org.gnome.seahorse.application', 'seahorse', 'org.kde.kwalletmanager5', 'kwalletmanager', 'kwalletd5', 'kwalletd6'],
    why: "the desktop's keyring: its banners are about stored secrets",
  },
  {
    names: ['org.gnome.gpaste', 'gpaste', 'org.kde.klipper', 'klipper', 'com.github.hluk.copyq', 'copyq'],
    why: 'a clipboard manager: its banners can show copied text, passwords included',
  },
];

/** Why a program is left out until the person keeps it; undefined for every other program. */
export function excludedByDefault(program: { desktopEntry?: string; appName: string }): string | undefined {
  const names = [program.desktopEntry, program.appName].filter((name): name is string => Boolean(name)).map((name) => name.toLowerCase());
  return EXCLUDED_BY_DEFAULT.find((entry) => names.some((name) => entry.names.includes(name.replace(/\.desktop$/, ''))))?.why;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** A URL as a Markdown link's target: the characters that would end it early, percent-encoded. */
const linkTarget = (url: string): string =>
  url.replace(/[()\s]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);

/** A tag of the specification's body markup, or any other tag (dropped, its text kept). */
const TAG = /<(\/?)([a-z]+)\b([^>]*)>/gi;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/i;
const ALT = /\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

/**
 * A banner body in the notification specification's markup (`<b>`, `<i>`, `<u>`, `<a href>`, `<img alt>`, entities)
 * as the Markdown History draws: bold, italic, links that may open (http, https, mailto); every other tag dropped
 * and the text escaped, so a body can never add markup of its own. `link` is the first link that may open.
 */
export function bodyFromMarkup(markup: string): { body: string; link?: string } {
  let body = '';
  let link: string | undefined;
  let at = 0;
  const openLinks: Array<string | undefined> = [];
  for (const match of markup.matchAll(TAG)) {
    body += escapeMarkdown(decodeEntities(markup.slice(at, match.index)));
    at = match.index + match[0].length;
    const closing = match[1] === '/';
    const tag = match[2]!.toLowerCase();
    if (tag === 'b') body += '**';
    else if (tag === 'i') body += '*';
    else if (tag === 'br') body += '\n';
    else if (tag === 'img' && !closing) {
      const alt = ALT.exec(match[3]!);
      if (alt) body += escapeMarkdown(decodeEntities(alt[1] ?? alt[2] ?? ''));
    } else if (tag === 'a' && !closing) {
      const href = HREF.exec(match[3]!);
      const url = href ? decodeEntities(href[1] ?? href[2] ?? '') : undefined;
      const openable = url !== undefined && isOpenableLink(url) ? url : undefined;
      link ??= openable;
      openLinks.push(openable);
      if (openable) body += '[';
    } else if (tag === 'a' && closing) {
      const url = openLinks.pop();
      if (url) body += `](${linkTarget(url)})`;
    }
  }
  body += escapeMarkdown(decodeEntities(markup.slice(at)));
  // An `<a>` never closed still closes, so the rest is not read as a link's label.
  for (const url of openLinks.reverse()) if (url) body += `](${linkTarget(url)})`;
  return { body: body.trim(), ...(link ? { link } : {}) };
}
