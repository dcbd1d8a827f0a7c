import { execFile, spawnSync } from 'node:child_process';
import { escapeMarkup } from '../../protocol/markdown.js';

/** What the person is asked to answer: who asks, and the notification they answer (docs/desktop.md#the-reply-window). */
export interface ReplyRequest {
  /** The app's display name, as on its banners. */
  appName: string;
  /** It came from an agent through the cloud relay. */
  relayed?: boolean;
  title: string;
  subtitle?: string;
  /** The body as plain text. */
  body?: string;
  /** The reply button's hint. */
  placeholder?: string;
}

/** A long body is cut in the window: it is a question to answer, not a reader (History has the whole text). */
const BODY_CHARS_SHOWN = 600;
/** The dialog programs do not wrap their text: lines are wrapped here, so a long body does not widen the window off the screen. */
const LINE_CHARS = 72;

/** A line wrapped at word boundaries into lines of at most LINE_CHARS (a longer word stays whole). */
function wrap(line: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(/\s+/).filter(Boolean)) {
    if (current && current.length + 1 + word.length > LINE_CHARS) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...lines, current];
}

/**
 * The small dialog programs that can ask the person for a line of text, in order of preference, and how each reads
 * its text: zenity takes backslash escapes (`\n`) and `_` as a mnemonic mark; yad takes those and Pango markup;
 * kdialog takes it as it is.
 */
const PROMPTS: Array<{ program: string; args: (title: string, text: string) => string[]; escape: (text: string) => string }> = [
  {
    program: 'zenity',
    args: (title, text) => ['--entry', `--title=${title}`, `--text=${text}`],
    escape: (text) => text.replace(/\\/g, '\\\\').replace(/_/g, '__'),
  },
  {
    program: 'yad',
    args: (title, text) => ['--entry', `--title=${title}`, `--text=${text}`],
    escape: (text) => escapeMarkup(text).replace(/\\/g, '\\\\'),
  },
  { program: 'kdialog', args: (title, text) => ['--title', title, '--inputbox', text], escape: (text) => text },
];

/** Whether this computer can ask for a reply in a window (zenity, yad or kdialog). */
export function promptProgram(): string | null {
  return PROMPTS.find(({ program }) => spawnSync('which', [program], { stdio: 'ignore' }).status === 0)?.program ?? null;
}

/**
 * The window's title and text: who asks ("Deploy bot asks", "Claude asks, through the cloud relay"), then the
 * notification's title, subtitle and body, then the hint.
 */
export function replyWindowText(request: ReplyRequest): { title: string; lines: string[] } {
  const body = request.body && request.body.length > BODY_CHARS_SHOWN ? `${request.body.slice(0, BODY_CHARS_SHOWN)}…` : request.body;
  const who = `${request.appName} asks${request.relayed ? ', through the cloud relay' : ''}:`;
  const parts = [request.title, request.subtitle, body, request.placeholder && `(${request.placeholder})`];
  const shown = parts.filter((part): part is string => Boolean(part)).flatMap((part) => part.split('\n').flatMap(wrap));
  return { title: `Reply to ${request.appName}`, lines: [who, '', ...shown] };
}

/**
 * Asks the person for a reply in a small window, for notification servers without inline replies. Resolves
 * with the text, or null when the person cancelled. Rejects when no prompt program is installed.
 */
export function askForReply(request: ReplyRequest): Promise<string | null> {
  const chosen = PROMPTS.find(({ program }) => program === promptProgram());
  if (!chosen) return Promise.reject(new Error('no reply window program is installed (zenity, yad or kdialog)'));
  const { title, lines } = replyWindowText(request);
  const text = lines.map(chosen.escape).join('\n');
  return new Promise((resolve) => {
    execFile(chosen.program, chosen.args(title, text), { timeout: 10 * 60_000 }, (error, stdout) =>
      resolve(error ? null : stdout.replace(/\n$/, '')),
    );
  });
}
