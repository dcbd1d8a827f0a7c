// `notifier apps` (registered apps and their settings) and `notifier approvals` (list and revoke; nothing grants).

import type { Command } from 'commander';
import { UsageError, keyValues } from '../args.js';
import { act, send } from './common.js';

export function registerAppCommands(program: Command): void {
  const apps = program.command('apps').description('list the registered apps (GET /v1/apps)');
  act(apps, (context) => send(context, { method: 'GET', path: '/v1/apps' }));
  act(
    apps.command('settings').description("show apps' settings (GET /v1/apps/settings)").option('--app <id>', 'only this app'),
    (context) => send(context, { method: 'GET', path: '/v1/apps/settings', query: { app: context.opts.app } }),
  );
  act(
    apps
      .command('set')
      .description("change an app's settings (PUT /v1/apps/settings); a value that reads as JSON keeps its type")
      .requiredOption('--app <id>', 'app id')
      .argument('<KEY=VALUE...>', 'for example muteBanners=true timeout=10 corner=null'),
    async (context) => {
      const words = context.args[0] as string[];
      if (words.length === 0) throw new UsageError('give at least one KEY=VALUE');
      await send(context, { method: 'PUT', path: '/v1/apps/settings', body: { ...keyValues(words), app: context.opts.app } });
    },
  );
  act(
    apps
      .command('delete')
      .description('remove an app with its History, templates, manifest and assets (DELETE /v1/apps/{id})')
      .requiredOption('--app <id>', 'app id'),
    (context) => send(context, { method: 'DELETE', path: `/v1/apps/${encodeURIComponent(context.opts.app)}` }),
  );

  const approvals = program.command('approvals').description("list the approvals of templates' code (GET /v1/actions/approvals)");
  act(approvals, (context) => send(context, { method: 'GET', path: '/v1/actions/approvals' }));
  act(
    approvals
      .command('revoke')
      .description("revoke a template's code approval (DELETE /v1/actions/approvals)")
      .requiredOption('--app <id>', 'app id')
      .requiredOption('--template <name>', 'template name'),
    (context) =>
      send(context, { method: 'DELETE', path: '/v1/actions/approvals', query: { app: context.opts.app, template: context.opts.template } }),
  );
}
