// An answered question looks answered, in Chromium against a real daemon: after a reply (or a press) the details say
// at the top "You replied: … · <time>" ("You pressed Yes · <time>"), the answer controls stand above the body and
// are folded behind "Answer again" while the reply is still open, else shown with what would answer again
// disabled; a command button of an app not yet allowed says it asks first, and one of an app that never asked, or
// that the person denied, is disabled with the reason.

import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { expectAxeClean } from '../helpers/app-pages.js';
import type { AppDaemon, AppSession } from '../helpers/app.js';
import { waitFor } from '../helpers/daemon.js';
import { openHistoryTab, sendNotification } from '../helpers/history-fixtures.js';

let daemon: AppDaemon;
let session: AppSession;
let page: Page;
let problems: string[];

const notify = (body: Record<string, unknown>): Promise<string> => sendNotification(daemon, body);
const open = async (title: string): Promise<void> => {
  await page.getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { level: 2, name: title }).waitFor();
};
const details = (title: string) => page.getByRole('article', { name: title });
/** Whether `first` comes before `second` in the document. */
const comesBefore = async (first: ReturnType<Page['locator']>, second: ReturnType<Page['locator']>): Promise<boolean> =>
  first.evaluate((a, b) => Boolean(a.compareDocumentPosition(b as typeof a) & 4 /* b follows a */), await second.elementHandle());

beforeAll(async () => {
  ({ daemon, page, problems } = await openHistoryTab({
    apps: [
      { app: 'claude', appName: 'Claude Code' },
      { app: 'deployer', appName: 'Deployer', allowCommands: true },
      { app: 'denied', appName: 'Denied tool', allowCommands: true },
      { app: 'plain', appName: 'Plain script' },
    ],
  }));
  session = await daemon.signIn();
});

describe('an answered question', () => {
  test('after a reply: "You replied" on top, the controls folded behind "Answer again", still live', async () => {
    await notify({
      app: 'claude',
      title: 'Open the pull request?',
      body: 'Changed 14 files.',
      buttons: [{ label: 'Answer', reply: { placeholder: 'yes, or what to change' } }],
    });
    await open('Open the pull request?');
    const article = details('Open the pull request?');
    // Not answered yet: the reply field stands above the body.
    const field = article.getByRole('textbox', { name: 'Reply', exact: true });
    expect(await comesBefore(field, article.getByText('Changed 14 files.'))).toBe(true);
    await field.fill('Yes, open it');
    await article.getByRole('button', { name: 'Send reply' }).click();
    const said = article.getByText(/^You replied: “?Yes, open it”? · \d{1,2}[:.]\d{2}/);
    await said.waitFor();
    expect(await comesBefore(said, article.getByRole('group', { name: 'This notification' }))).toBe(true); // at the top
    expect(await field.count()).toBe(0); // folded
    const again = article.getByRole('button', { name: 'Answer again' });
    expect(await again.getAttribute('aria-expanded')).toBe('false');
    await again.focus();
    await page.keyboard.press('Enter');
    expect(await again.getAttribute('aria-expanded')).toBe('true');
    await field.fill('And merge it');
    await article.getByRole('button', { name: 'Send reply' }).click();
    await article.getByText(/^You replied: “?And merge it/).waitFor();
    const replies = (await daemon.api('GET', '/v1/history?app=claude')).json.items[0];
    expect(replies.reply).toBe('And merge it');
  });

  test('after a press with nothing left to answer: "You pressed Yes", the answer buttons disabled', async () => {
    const id = await notify({ app: 'claude', title: 'Ship the release?', buttons: [{ label: 'Yes' }, { label: 'No' }] });
    await open('Ship the release?');
    const article = details('Ship the release?');
    await article.getByRole('button', { name: 'Yes', exact: true }).click();
    await waitFor(
      async () =>
        (await daemon.api('GET', '/v1/history?app=claude')).json.items.find((item: { id: string }) => item.id === id)?.actionUsed === 'Yes'
          ? true
          : undefined,
      'the press to be recorded',
    );
    await article.getByText(/^You pressed Yes · \d{1,2}[:.]\d{2}/).waitFor();
    for (const label of ['Yes', 'No']) expect(await article.getByRole('button', { name: label, exact: true }).isDisabled()).toBe(true);
    await article.getByText('Already answered: it takes no other answer.').waitFor();
    expect(await article.getByRole('button', { name: 'Answer again' }).count()).toBe(0);
  });

  test('code buttons: "asks you first" before the app is allowed; disabled with why for an app that never asked or was denied', async () => {
    const { questions } = (await session.call('GET', '/app/api/approvals')).json;
    const deniedQuestion = questions.find(
      (question: { app: string; kind: string }) => question.app === 'denied' && question.kind === 'allowCommands',
    );
    expect((await session.call('POST', `/app/api/approvals/questions/${deniedQuestion.id}`, { allow: false })).status).toBe(200);
    await notify({ app: 'deployer', title: 'Deploy build 88?', buttons: [{ label: 'Deploy', command: 'make deploy' }] });
    await notify({ app: 'plain', title: 'Clean the cache?', buttons: [{ label: 'Clean', command: 'rm -rf /tmp/cache' }] });
    await notify({ app: 'denied', title: 'Run the migration?', buttons: [{ label: 'Migrate', command: 'make migrate' }] });

    await open('Deploy build 88?');
    const deploy = details('Deploy build 88?')
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Deploy' }) });
    expect(await deploy.textContent()).toContain('asks you first');
    expect(await deploy.getByRole('button', { name: 'Deploy' }).isEnabled()).toBe(true);

    await open('Clean the cache?');
    const clean = details('Clean the cache?').getByRole('button', { name: 'Clean', exact: true });
    expect(await clean.isDisabled()).toBe(true);
    await details('Clean the cache?')
      .getByText('Plain script did not ask to run commands, scripts and shortcuts on this computer.')
      .waitFor();

    await open('Run the migration?');
    expect(await details('Run the migration?').getByRole('button', { name: 'Migrate', exact: true }).isDisabled()).toBe(true);
    await details('Run the migration?')
      .getByText('You denied Denied tool running commands, scripts and shortcuts on this computer.')
      .waitFor();
  });

  test('axe on answered details, light and dark, wide and 400 px', async () => {
    for (const title of ['Open the pull request?', 'Ship the release?']) {
      const id = (await daemon.api('GET', '/v1/history?app=claude')).json.items.find(
        (item: { notification: { title: string } }) => item.notification.title === title,
      ).id;
      await expectAxeClean(page, async () => {
        await page.goto(new URL(`/app/history/claude/${encodeURIComponent(id)}`, page.url()).href);
        await details(title)
          .getByText(/^You (replied|pressed).* · /)
          .waitFor();
      });
    }
    expect(problems).toEqual([]);
  });
});
