// `notifier keys ...`: sending keys (docs/cli.md#keys, docs/api/keys.md). A key sends notifications as one app and
// opens nothing else: the line to put in a monitoring tool's configuration instead of the API token. And
// `notifier scheduled ...`: what the senders asked to show later (docs/api/scheduled.md).

import type { Command } from 'commander';
import { act, deleteCommand, notificationCommand, send, showingGroup } from './common.js';

export function registerKeyCommands(program: Command): void {
  const keys = showingGroup(program, 'keys', '/v1/keys', {
    group: 'sending keys: each sends notifications as one app, and nothing else',
    shown: ['list', 'every key (never the key itself), with its last use'],
  });
  act(
    keys
      .command('create')
      .description('make a sending key, shown this once, with lines for curl and Apprise (POST /v1/keys)')
      .requiredOption('--app <id>', 'the app it sends as (for ntfy, the topic)')
      .option('--name <name>', 'what you call it, such as the tool and the machine'),
    (context) => {
      const name = context.opts.name as string | undefined;
      return send(context, { method: 'POST', path: '/v1/keys', body: { app: context.opts.app as string, ...(name ? { name } : {}) } });
    },
  );
  deleteCommand(keys, 'revoke', 'revoke a sending key', '/v1/keys', "the key's id (key-…)");
}

export function registerScheduledCommands(program: Command): void {
  const scheduled = showingGroup(program, 'scheduled', '/v1/scheduled', {
    group: "notifications waiting for their time (ntfy's delayed publishes)",
    shown: ['list', 'every one, soonest first'],
  });
  notificationCommand(scheduled, 'cancel', 'cancel one before its time', 'DELETE', '/v1/scheduled');
}
