// The relay's own web pages for connecting an agent (docs/relay-api.md#ra105, #ra113): the consent page of the
// browser flow, the "pair first" and error pages, and the device flow's `/activate` pages. Plain HTML and CSS that
// work without JavaScript (the code form and Deny are ordinary forms); a small script only follows the approval
// made on the computer. Every value shown is escaped; each answer has its own CSP nonce (pageHeaders).

import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../common/html-escape.js';
import { APPROVAL_CODE_DIGITS } from '../../protocol/relay/consent.js';
import { CONSENT_POLL_MS } from './limits.js';

/** A fresh nonce for one answer's style and script. */
export const newNonce = (): string => randomBytes(16).toString('base64');

/**
 * RA105: the headers of every page: not cached, never framed, no referrer, and a CSP that allows only this
 * answer's own style and script, requests to the relay itself, and forms that post to the relay (and whatever
 * the browser is then redirected to: `formTarget`, the client's redirect origin or scheme).
 */
export function pageHeaders(nonce: string, formTarget?: string): Record<string, string> {
  const formAction = ["'self'", ...(formTarget ? [formTarget] : [])].join(' ');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "img-src 'self' data:",
      `form-action ${formAction}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** What a form may be redirected to after posting: an http(s) origin, or an app's own scheme (`com.example.app:`). */
export function formTargetOf(redirectUri: string | null): string | undefined {
  if (redirectUri === null) return undefined;
  const url = new URL(redirectUri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : url.protocol;
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6474; --bg: #f3f4f7; --card: #fff; --line: #dfe2e8;
  --accent: #2f5bd3; --accent-fg: #fff; --warn: #a4420d; --ok: #1d7a3f; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaef; --muted: #a2a9b6; --bg: #15171c; --card: #1e2128;
  --line: #343944; --accent: #7b9cff; --accent-fg: #10131a; --warn: #f3a470; --ok: #6fd497; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 2.5rem 1rem; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 32rem; margin: 0 auto; background: var(--card); border: 1px solid var(--line); border-radius: 14px;
  padding: 1.75rem 1.75rem 1.25rem; box-shadow: 0 1px 3px rgb(0 0 0 / 6%); }
.eyebrow { margin: 0 0 .25rem; color: var(--muted); font-size: .8rem; letter-spacing: .06em; text-transform: uppercase; }
h1 { margin: 0 0 .75rem; font-size: 1.45rem; line-height: 1.25; overflow-wrap: anywhere; }
h2 { margin: 0 0 .3rem; font-size: 1rem; }
p { margin: 0 0 .75rem; }
.name { overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 1rem 0; padding: .75rem 1rem;
  border-radius: 10px; background: var(--bg); font-size: .95rem; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
section { border-top: 1px solid var(--line); padding: 1rem 0 .25rem; }
.status { font-weight: 600; }
.status.ok { color: var(--ok); }
.status.warn, .message { color: var(--warn); }
.message { font-weight: 600; }
form.row { display: flex; gap: .5rem; flex-wrap: wrap; margin: .5rem 0 .75rem; }
input[type=text] { flex: 1 1 9rem; min-width: 0; padding: .55rem .7rem; border: 1px solid var(--line); border-radius: 8px;
  background: var(--card); color: var(--fg); font: inherit; font-size: 1.15rem; letter-spacing: .12em; }
button { padding: .55rem 1.1rem; border-radius: 8px; border: 1px solid var(--accent); background: var(--accent);
  color: var(--accent-fg); font: inherit; font-weight: 600; cursor: pointer; }
button.secondary { background: transparent; color: var(--fg); border-color: var(--line); }
.actions { display: flex; justify-content: flex-end; border-top: 1px solid var(--line); padding-top: 1rem; margin-top: .5rem; }
.fine { color: var(--muted); font-size: .85rem; margin-top: 1rem; }
a { color: var(--accent); }
`;

/** A whole page around `body`, with this answer's nonce on its style and (optional) script. */
function page(nonce: string, title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
<p class="eyebrow">Notifier relay</p>
${body}
</main>
${script ? `<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>
`;
}

/** A page that only says something (errors, "pair first", done). */
export function messagePage(nonce: string, title: string, paragraphs: string[]): string {
  return page(nonce, title, `<h1>${escapeHtml(title)}</h1>\n${paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}`);
}

export interface ConsentPageInput {
  rid: string;
  clientName: string;
  /** Where the browser returns (host, or the app's scheme). */
  returnHost: string;
  deviceName: string;
  deviceOnline: boolean;
  expiresAt: string;
  /** The other computers the approval could go to (links to /authorize with device=N). */
  others: { name: string; href: string }[];
  /** After a wrong code: what to say. */
  message?: string;
}

/** How the page names a computer. */
const computerName = (name: string): string => (name === '' ? 'your computer' : name);

/**
 * Where the person finds the approval code (both arguments escaped already): the desktop shows it in the detail of
 * the banner that asks, on the request's entry in its tray menu, and on the Approvals page of its window — nowhere
 * else.
 */
const whereTheCodeIs = (computer: string, client: string): string =>
  `On ${computer}, Notifier shows a ${APPROVAL_CODE_DIGITS}-digit code on the banner that asks you to approve ${client}, in its tray menu and on the Approvals page of its window`;

/**
 * The poller (RA105): asks for the request's status every 2 seconds (4 after a failed look), follows the redirect
 * once the person decided on the computer, and stops when the request is gone. It never approves anything.
 */
const POLL_SCRIPT = `(() => {
  const status = document.getElementById('status');
  const rid = status.dataset.rid;
  const say = (text, kind) => { status.textContent = text; status.className = 'status' + (kind ? ' ' + kind : ''); };
  const look = async () => {
    let next = ${CONSENT_POLL_MS};
    try {
      const answer = await fetch('/authorize/status?rid=' + encodeURIComponent(rid), { cache: 'no-store' });
      const body = await answer.json();
      if (body.redirect) {
        say(body.status === 'approved' ? 'Approved. Returning to the app\\u2026' : 'Denied. Returning to the app\\u2026', body.status === 'approved' ? 'ok' : 'warn');
        window.location.replace(body.redirect);
        return;
      }
      if (body.status === 'expired' || body.status === 'unknown') {
        say('This request is no longer open. Start the connection again from the app.', 'warn');
        return;
      }
    } catch {
      next = ${CONSENT_POLL_MS * 2};
    }
    setTimeout(look, next);
  };
  setTimeout(look, ${CONSENT_POLL_MS});
})();`;

/**
 * RA105, RA113: the approval code form with the message of the last try, the end of its section, and Deny; each
 * form posts the request's id (`rid`, escaped already) to its route.
 */
function codeForms(routes: { approve: string; deny: string }, rid: string, message: string | undefined): string {
  return `${message ? `<p class="message" role="alert">${escapeHtml(message)}</p>` : ''}
<form class="row" method="post" action="${routes.approve}">
<input type="hidden" name="rid" value="${rid}">
<input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="9" placeholder="123 456" aria-label="Approval code" required>
<button type="submit">Approve</button>
</form>
</section>
<form class="actions" method="post" action="${routes.deny}">
<input type="hidden" name="rid" value="${rid}">
<button type="submit" class="secondary">Deny</button>
</form>`;
}

/** RA105: the consent page of the browser flow. */
export function consentPage(nonce: string, input: ConsentPageInput): string {
  const client = `<b class="name">${escapeHtml(input.clientName)}</b>`;
  const computer = escapeHtml(computerName(input.deviceName));
  const rid = escapeHtml(input.rid);
  const others =
    input.others.length === 0
      ? ''
      : `<p class="fine">Not the right computer? Ask ${input.others
          .map((other) => `<a href="${escapeHtml(other.href)}">${escapeHtml(computerName(other.name))}</a>`)
          .join(', ')} instead.</p>`;
  const body = `<h1>Connect ${client} to Notifier?</h1>
<p>${client} asks to send you notifications through this relay. It may send notifications and read their receipts
and your replies. Nothing else: no buttons, commands or scripts.</p>
<dl>
<dt>Returns to</dt><dd>${escapeHtml(input.returnHost)}</dd>
<dt>Approve on</dt><dd>${computer} (${input.deviceOnline ? 'connected' : 'not connected right now'})</dd>
</dl>
<section>
<h2>Approve it on your computer</h2>
<p>A Notifier banner on ${computer} asks whether to let ${client} in. Press Approve there, and this page goes on by itself.</p>
<p class="status" id="status" data-rid="${rid}" role="status" aria-live="polite">Waiting for your approval…</p>
<noscript><p class="message">Without JavaScript this page cannot follow an approval made on the computer: type the approval code below instead.</p></noscript>
</section>
<section>
<h2>Or type the approval code</h2>
<p>${whereTheCodeIs(computer, client)}.</p>
${codeForms({ approve: '/authorize/code', deny: '/authorize/deny' }, rid, input.message)}
${others}
<p class="fine">This request is open until ${escapeHtml(input.expiresAt.slice(11, 16))} UTC.</p>`;
  return page(nonce, `Connect ${input.clientName} to Notifier`, body, POLL_SCRIPT);
}

/** RA113: the first `/activate` page: type the code the agent shows. */
export function activateForm(nonce: string, userCode: string, message?: string): string {
  const body = `<h1>Connect an agent to Notifier</h1>
<p>Type the code your agent shows you (like <b>BCDF-GHJK</b>).</p>
${message ? `<p class="message" role="alert">${escapeHtml(message)}</p>` : ''}
<form class="row" method="post" action="/activate">
<input type="text" name="user_code" value="${escapeHtml(userCode)}" autocomplete="off" autocapitalize="characters" maxlength="20" aria-label="Code from the agent" required>
<button type="submit">Continue</button>
</form>`;
  return page(nonce, 'Connect an agent to Notifier', body);
}

export interface ActivateConfirmInput {
  rid: string;
  clientName: string;
  userCode: string;
  deviceName: string;
  message?: string;
}

/** RA113: the second `/activate` page: the approval code from the computer approves. */
export function activateConfirm(nonce: string, input: ActivateConfirmInput): string {
  const client = `<b class="name">${escapeHtml(input.clientName)}</b>`;
  const rid = escapeHtml(input.rid);
  const computer = escapeHtml(computerName(input.deviceName));
  const body = `<h1>Let ${client} send you notifications?</h1>
<p>${client} (code <b>${escapeHtml(input.userCode)}</b>) asks to send you notifications through this relay and read their
receipts and your replies. Nothing else: no buttons, commands or scripts.</p>
<section>
<h2>Type the approval code</h2>
<p>${whereTheCodeIs(computer, client)} (or press Approve there).</p>
${codeForms({ approve: '/activate/approve', deny: '/activate/deny' }, rid, input.message)}`;
  return page(nonce, `Let ${input.clientName} send you notifications?`, body);
}
