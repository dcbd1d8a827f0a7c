// Read state follows the banner (docs/app.md#read-and-unread): acting on a notification's banner — a click, a
// button, a reply — reads it, as opening it in the window does; closing the banner, or its time running out, does
// not. The daemon runs in this process with the test presenter playing the person's display.

import { describe, expect, test } from '@jest/globals';
import { eventually, startInProcess } from '../helpers/in-process.js';

describe('acting on a banner reads the notification', () => {
  test('a click, a button and a reply read it; closing the banner does not', async () => {
    const n = await startInProcess();
    const { readState, history } = n.daemon.core;
    const isRead = (id: string) => readState.isRead(history.get('desk', id)!);
    await n.notify({ app: 'desk', id: 'clicked', title: 'Click me', url: 'https://example.com' });
    await n.notify({ app: 'desk', id: 'pressed', title: 'Press', buttons: [{ label: 'Done' }] });
    await n.notify({ app: 'desk', id: 'replied', title: 'Ask', buttons: [{ label: 'Answer', reply: {} }] });
    await n.notify({ app: 'desk', id: 'closed', title: 'Close me', persistent: true });
    expect(readState.unreadCount()).toBe(4);

    n.person.click('desk', 'clicked');
    n.person.press('desk', 'pressed', 'done');
    n.person.reply('desk', 'replied', 'answer', 'yes');
    n.person.closeByPerson('desk', 'closed');
    await eventually(() => ['clicked', 'pressed', 'replied'].every(isRead), 'the three to be read');
    await eventually(async () => (await n.record('desk', 'closed')).dismissedAt, 'the banner to close');
    expect(isRead('closed')).toBe(false);
    expect(readState.unreadCount()).toBe(1);
  });
});
