import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { ROOT, tempFolder } from '../helpers/daemon.js';
import { type Running, startInProcess } from '../helpers/in-process.js';
import { runProgram } from '../helpers/process.js';

// The examples of clients/README.md run as written: each fenced block is taken from the README as it is, saved to
// a file and run (Python with the module on PYTHONPATH, Node with `notifier-client` installed as `npm install
// <folder>` does, a link in node_modules) against a real daemon whose person answers the questions they ask.

const README = path.join(ROOT, 'clients', 'README.md');
/** What the person types into any reply field a program waits on. */
const TYPED = 'yes, after 5pm';

/** The fenced blocks in language `lang` of the section under `## heading`, in order. */
function blocks(markdown: string, heading: string, lang: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section ${heading} in clients/README.md`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((match) => match[1]!);
}

/**
 * Plays the person at an in-process daemon: when a request starts waiting for the reply to a banner that has a
 * reply field, the person types TYPED into it. Only the person can reply: the test presenter is how a test acts
 * as them.
 */
function answerEveryWait(n: Running): void {
  const queue = n.daemon.core.replies;
  const wait = queue.wait.bind(queue);
  queue.wait = (id, app, deliver) => {
    const stop = wait(id, app, deliver);
    const banner = [...n.person.onScreen.values()].find((shown) => shown.key.id === id && (app === undefined || shown.key.app === app));
    const field = banner?.actions.find((action) => action.kind === 'reply');
    if (banner && field) setImmediate(() => n.person.reply(banner.key.app, id, field.actionId, TYPED));
    return stop;
  };
}

describe('the examples of clients/README.md, run as written', () => {
  let markdown: string;
  let n: Running;
  let work: string;

  beforeAll(async () => {
    markdown = await readFile(README, 'utf8');
    n = await startInProcess();
    answerEveryWait(n);
    work = await tempFolder('notifier-readme-');
    // What `npm install /path/to/notifier/clients/node` leaves: a link to the folder.
    await mkdir(path.join(work, 'node_modules'));
    await symlink(path.join(ROOT, 'clients', 'node'), path.join(work, 'node_modules', 'notifier-client'), 'dir');
  });

  const env = () => ({
    NOTIFIER_SUPPORT_DIR: n.daemon.supportDir,
    PYTHONPATH: path.join(ROOT, 'clients', 'python'),
    PYTHONDONTWRITEBYTECODE: '1',
  });
  const runPython = async (name: string, code: string) => {
    await writeFile(path.join(work, name), code);
    return runProgram('python3', [name], { cwd: work, env: env() });
  };
  const runNode = async (name: string, code: string) => {
    await writeFile(path.join(work, name), code);
    return runProgram(process.execPath, [name], { cwd: work, env: env() });
  };
  /** The records of one app whose title is this. */
  const titled = async (app: string, title: string) =>
    (await n.api('GET', `/v1/history?app=${app}&limit=100`)).json.items.filter(
      (item: { notification: { title?: string } }) => item.notification.title === title,
    );

  test('Python: the whole example, the question answered and the reminder snoozed and back', async () => {
    const [example] = blocks(markdown, 'Python', 'python');
    const result = await runPython('example.py', example!);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout.split('\n')).toContain(TYPED);
    const [question] = await titled('deploys', 'Deploy to production?');
    expect(question).toMatchObject({ reply: TYPED, actionUsed: 'Answer' });
    const reminders = await titled('deploys', 'Release notes to review');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).not.toHaveProperty('snoozedUntil');
    expect(n.person.banner('deploys', reminders[0].id)).toBeDefined();
  });

  test('Node: the whole example, as an ES module importing the installed package', async () => {
    const [example] = blocks(markdown, 'Node', 'js');
    await n.api('DELETE', '/v1/history?app=deploys');
    const result = await runNode('example.mjs', example!);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout.split('\n')).toContain(TYPED);
    const reminders = await titled('deploys', 'Release notes to review');
    expect(reminders).toHaveLength(1);
    expect(n.person.banner('deploys', reminders[0].id)).toBeDefined();
  });

  test('Errors: both snippets, with the import line of their language’s example', async () => {
    const [pythonImport] = blocks(markdown, 'Python', 'python')[0]!.split('\n');
    const [nodeImport] = blocks(markdown, 'Node', 'js')[0]!.split('\n');
    const [pythonErrors] = blocks(markdown, 'Errors', 'python');
    const [nodeErrors] = blocks(markdown, 'Errors', 'js');
    const python = await runPython('errors.py', `${pythonImport}\n${pythonErrors}`);
    expect({ code: python.code, stdout: python.stdout, stderr: python.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    const node = await runNode('errors.mjs', `${nodeImport}\n${nodeErrors}`);
    expect({ code: node.code, stdout: node.stdout, stderr: node.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await titled('backup', 'Done')).toHaveLength(2);
  });

  test('what the README warns about: snooze after a reply is refused, the banner being closed', async () => {
    const question = await n.notify({ app: 'warned', title: 'Ship it?', buttons: [{ label: 'Answer', reply: {} }] });
    const wait = await n.api('GET', `/v1/replies/wait?id=${question.json.id}&app=warned&timeout=20`);
    expect(wait.json).toMatchObject({ replied: true, reply: { text: TYPED } });
    const snooze = await n.api('POST', '/v1/snooze', { body: { app: 'warned', id: question.json.id, minutes: 15 } });
    expect([snooze.status, snooze.json]).toEqual([400, { error: 'the notification was already dismissed', code: 'already_dismissed' }]);
    expect(markdown).toContain('400 and the message `the notification was already dismissed`');
  });
});
