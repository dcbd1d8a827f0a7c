import { execFile, spawnSync } from 'node:child_process';

/** The small dialog programs that can ask the person for a line of text, in order of preference. */
const PROMPTS: Array<{ program: string; args: (title: string, text: string) => string[] }> = [
  { program: 'zenity', args: (title, text) => ['--entry', `--title=${title}`, `--text=${text}`] },
  { program: 'yad', args: (title, text) => ['--entry', `--title=${title}`, `--text=${text}`] },
  { program: 'kdialog', args: (title, text) => ['--title', title, '--inputbox', text] },
];

/** Whether this computer can ask for a reply in a window (zenity, yad or kdialog). */
export function promptProgram(): string | null {
  return PROMPTS.find(({ program }) => spawnSync('which', [program], { stdio: 'ignore' }).status === 0)?.program ?? null;
}

/**
 * Asks the person for a reply in a small window, for notification servers without inline replies. Resolves
 * with the text, or null when the person cancelled. Rejects when no prompt program is installed.
 */
export function askForReply(title: string, question: string, placeholder?: string): Promise<string | null> {
  const chosen = PROMPTS.find(({ program }) => program === promptProgram());
  if (!chosen) return Promise.reject(new Error('no reply window: install zenity, yad or kdialog'));
  const text = placeholder ? `${question}\n(${placeholder})` : question;
  return new Promise((resolve) => {
    execFile(chosen.program, chosen.args(title, text), { timeout: 10 * 60_000 }, (error, stdout) =>
      resolve(error ? null : stdout.replace(/\n$/, '')),
    );
  });
}
