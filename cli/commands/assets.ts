// `notifier assets` (an app's Rive files and images) and `notifier manifest delete`. The tool has no command that
// saves a manifest (docs/cli.md#manifest-assets).

import path from 'node:path';
import { type Command, Option } from 'commander';
import { defined } from '../args.js';
import { act, send } from './common.js';

export function registerAssetCommands(program: Command): void {
  const assets = program.command('assets').description("an app's Rive files and images");
  act(assets.command('list').description("list an app's assets (GET /v1/assets)").requiredOption('--app <id>', 'app id'), (context) =>
    send(context, { method: 'GET', path: '/v1/assets', query: { app: context.opts.app } }),
  );
  act(
    assets
      .command('add')
      .description('add a Rive file or an image to an app (POST /v1/assets)')
      .argument('<file>', 'the file (.riv or a picture)')
      .requiredOption('--app <id>', 'app id')
      .option('--name <name>', 'store it under this file name')
      .addOption(new Option('--kind <kind>', 'for a name without a known extension').choices(['rive', 'image'])),
    (context) =>
      send(context, {
        method: 'POST',
        path: '/v1/assets',
        // The service reads the file itself: it runs on this computer, but not in this folder.
        body: defined({
          app: context.opts.app,
          path: path.resolve(context.args[0] as string),
          name: context.opts.name,
          kind: context.opts.kind,
        }),
      }),
  );
  act(
    assets
      .command('rm')
      .description('remove an asset (DELETE /v1/assets)')
      .argument('<file>', 'the file name, as assets list shows it')
      .requiredOption('--app <id>', 'app id'),
    (context) => send(context, { method: 'DELETE', path: '/v1/assets', query: { app: context.opts.app, file: context.args[0] as string } }),
  );

  const manifest = program.command('manifest').description("an app's manifest");
  act(
    manifest.command('delete').description("delete an app's manifest (DELETE /v1/manifest)").requiredOption('--app <id>', 'app id'),
    (context) => send(context, { method: 'DELETE', path: '/v1/manifest', query: { app: context.opts.app } }),
  );
}
