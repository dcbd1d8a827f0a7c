// `notifier history`: list or clear an app's History, search, re-show, delete one record, export to a file.

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError, wholeNumber } from '../args.js';
import { act, ask, notificationCommand, required, send } from './common.js';

export function registerHistoryCommands(program: Command): void {
  const history = program
    .command('history')
    .description("list an app's recent notifications (GET /v1/history), or clear them with --clear (DELETE /v1/history)")
    .option('--app <id>', 'app id (required)')
    .option('--limit <n>', 'at most this many records (default 50)', wholeNumber)
    .option('--clear', "delete the app's History");
  act(history, async (context) => {
    const { limit, clear } = context.opts;
    const app = required<string>(context.opts.app, '--app');
    if (clear && limit !== undefined) throw new UsageError('--clear deletes every record of the app; it takes no --limit');
    if (clear) await send(context, { method: 'DELETE', path: '/v1/history', query: { app } });
    else await send(context, { method: 'GET', path: '/v1/history', query: { app, limit } });
  });

  act(
    history
      .command('search')
      .description('find records containing every word, newest first (GET /v1/history/search)')
      .argument('[words...]', 'words to find; none lists the most recent')
      .option('--app <id>', 'only this app')
      .option('--limit <n>', 'at most this many records (up to 1000, default 50)', wholeNumber),
    (context) => {
      const words = context.args[0] as string[];
      const q = words.length > 0 ? words.join(' ') : undefined;
      return send(context, { method: 'GET', path: '/v1/history/search', query: { q, app: context.opts.app, limit: context.opts.limit } });
    },
  );

  notificationCommand(history, 'reshow', 'show a stored notification again', 'POST', '/v1/history/reshow');
  notificationCommand(history, 'delete', 'delete one record', 'DELETE', '/v1/history/item');

  act(
    history
      .command('export')
      .description('export records as JSON (GET /v1/history/export): to a file with --out, else printed')
      .option('--app <id>', 'only this app')
      .option('-o, --out <file>', 'write the records to this file'),
    async (context) => {
      const { app, out } = context.opts;
      if (out === undefined) return send(context, { method: 'GET', path: '/v1/history/export', query: { app } });
      const reply = await ask(context, { method: 'GET', path: '/v1/history/export', query: { app } });
      if (!reply) return;
      const { items } = reply.json as { items: unknown[] };
      // The same file the service writes when given a path: the records, newest first, two-space indented.
      const file = path.resolve(out);
      await writeFile(file, `${JSON.stringify(items, null, 2)}\n`).catch((error: Error) => {
        throw new UsageError(`cannot write ${file}: ${error.message}`);
      });
      process.stdout.write(`Wrote ${file} (${items.length} ${items.length === 1 ? 'record' : 'records'})\n`);
    },
  );
}
