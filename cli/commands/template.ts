// `notifier template ...`: the template routes (docs/api/templates.md). `export` and `import` work on bundle
// files in the tool: export writes the bundle the service packs, import reads the file and sends its bytes.

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { MAX_BODY_BYTES } from '../../protocol/limits.js';
import { UsageError, checkFollowUpFlags, defined, followUpAfter, readInput, readJsonObject } from '../args.js';
import { act, ask, send } from './common.js';

const FOLLOW_UP_NAMES = {
  after: '--after',
  shortcut: '--shortcut',
  script: '--script',
  command: '--command',
  ref: '--action-ref',
  input: '--input',
};

/** The body of PUT /v1/templates/follow-up: `--off` alone, or `--after` with one action. */
function followUpBody(opts: Record<string, any>): Record<string, unknown> {
  const where = { app: opts.app, template: opts.name };
  const flags = {
    after: opts.after,
    shortcut: opts.shortcut,
    script: opts.script,
    command: opts.command,
    ref: opts.actionRef,
    input: opts.input,
  };
  if (opts.off) {
    const others = Object.entries({ ...flags, label: opts.label }).filter(([, value]) => value !== undefined);
    if (others.length > 0)
      throw new UsageError(
        `--off stands alone: it switches the follow-up off (remove ${others.map(([key]) => `--${key === 'ref' ? 'action-ref' : key}`).join(', ')})`,
      );
    return defined({ ...where, enabled: false });
  }
  checkFollowUpFlags(flags, FOLLOW_UP_NAMES);
  return defined({
    ...where,
    after: flags.after,
    shortcut: flags.shortcut,
    script: flags.script,
    command: flags.command,
    actionRef: flags.ref,
    input: flags.input,
    label: opts.label,
  });
}

const ON_CONFLICT_FLAGS = { keepBoth: '--keep-both', replace: '--replace', fail: '--fail' } as const;

function onConflict(opts: Record<string, any>): keyof typeof ON_CONFLICT_FLAGS {
  const given = (Object.keys(ON_CONFLICT_FLAGS) as (keyof typeof ON_CONFLICT_FLAGS)[]).filter((key) => opts[key]);
  if (given.length > 1)
    throw new UsageError(
      `give at most one of --keep-both, --replace and --fail (got ${given.map((key) => ON_CONFLICT_FLAGS[key]).join(' and ')})`,
    );
  return given[0] ?? 'keepBoth';
}

/** The import request: the bundle's bytes inline; a bundle too large for a request body goes by its path. */
async function importBody(file: string, app: string | undefined, conflict: string): Promise<Record<string, unknown>> {
  const bytes = await readInput(file);
  const inline = defined({ base64: bytes.toString('base64'), app, onConflict: conflict });
  if (Buffer.byteLength(JSON.stringify(inline)) <= MAX_BODY_BYTES) return inline;
  return defined({ path: path.resolve(file), app, onConflict: conflict });
}

export function registerTemplateCommands(program: Command): void {
  const template = program.command('template').description('list, save, copy, export and import templates');

  act(
    template
      .command('list')
      .description('list templates (GET /v1/templates)')
      .option('--app <id>', 'only this app (with the built-in layouts)'),
    (context) => send(context, { method: 'GET', path: '/v1/templates', query: { app: context.opts.app } }),
  );

  act(
    template
      .command('put')
      .description('save a template from a JSON file, - for standard input (PUT /v1/templates)')
      .argument('<file>', 'the template as JSON'),
    async (context) => send(context, { method: 'PUT', path: '/v1/templates', body: await readJsonObject(context.args[0] as string) }),
  );

  act(
    template
      .command('delete')
      .description('delete a template (DELETE /v1/templates)')
      .requiredOption('--app <id>', 'app id')
      .requiredOption('--name <name>', 'template name'),
    (context) => send(context, { method: 'DELETE', path: '/v1/templates', query: { app: context.opts.app, name: context.opts.name } }),
  );

  act(
    template
      .command('duplicate')
      .description('copy a template, maybe to another app (POST /v1/templates/duplicate)')
      .requiredOption('--app <id>', 'app id')
      .requiredOption('--name <name>', 'template to copy')
      .option('--new-name <name>', 'name of the copy (default: "<name> copy")')
      .option('--to-app <id>', 'copy into this app'),
    (context) =>
      send(context, {
        method: 'POST',
        path: '/v1/templates/duplicate',
        body: defined({ app: context.opts.app, name: context.opts.name, newName: context.opts.newName, toApp: context.opts.toApp }),
      }),
  );

  act(
    template
      .command('rename')
      .description('rename a template (POST /v1/templates/rename)')
      .requiredOption('--app <id>', 'app id')
      .requiredOption('--name <name>', 'current name')
      .requiredOption('--new-name <name>', 'new name'),
    (context) =>
      send(context, {
        method: 'POST',
        path: '/v1/templates/rename',
        body: { app: context.opts.app, name: context.opts.name, newName: context.opts.newName },
      }),
  );

  act(
    template
      .command('default')
      .description("set or clear the app's default template (PUT /v1/templates/default)")
      .requiredOption('--app <id>', 'app id')
      .option('--name <name>', 'the template to use by default')
      .option('--clear', 'no default template'),
    async (context) => {
      const { app, name, clear } = context.opts;
      if ((name === undefined) === !clear) throw new UsageError('give exactly one of --name NAME and --clear');
      await send(context, { method: 'PUT', path: '/v1/templates/default', body: defined({ app, name }) });
    },
  );

  act(
    template
      .command('follow-up')
      .description("set or switch off a template's follow-up (PUT /v1/templates/follow-up)")
      .requiredOption('--app <id>', 'app id')
      .option('--name <name>', "template name (default: the app's default template)")
      .option('--after <duration>', 'seconds, 90s, 10m, 2h (5 s to 7 days)', followUpAfter)
      .option('--shortcut <name>', 'run this shortcut')
      .option('--script <file>', 'run this script from the scripts folder')
      .option('--command <command>', 'run this shell command')
      .option('--action-ref <id>', "run this action of the app's manifest")
      .option('--input <text>', 'text handed to the shortcut or script')
      .option('--label <text>', 'label of the action')
      .option('--off', 'switch the follow-up off (alone)'),
    (context) => send(context, { method: 'PUT', path: '/v1/templates/follow-up', body: followUpBody(context.opts) }),
  );

  act(
    template
      .command('export')
      .description('write a template and its Rive files to a .notifiertemplate bundle (GET /v1/templates/export)')
      .requiredOption('--app <id>', 'app id')
      .requiredOption('--name <name>', 'template name')
      .option('-o, --out <file>', 'the bundle file (default: <name>.notifiertemplate in the current folder)'),
    async (context) => {
      const { app, name, out } = context.opts;
      const reply = await ask(context, { method: 'GET', path: '/v1/templates/export', query: { app, name } });
      if (!reply) return;
      const bundle = reply.json as { base64: string; file: string; assets?: string[]; warnings?: string[] };
      const file = path.resolve(out ?? path.basename(bundle.file));
      await writeFile(file, Buffer.from(bundle.base64, 'base64')).catch((error: Error) => {
        throw new UsageError(`cannot write ${file}: ${error.message}`);
      });
      for (const warning of bundle.warnings ?? []) process.stderr.write(`notifier: warning: ${warning}\n`);
      const count = bundle.assets?.length ?? 0;
      process.stdout.write(`Wrote ${file} (${count} animation ${count === 1 ? 'file' : 'files'})\n`);
    },
  );

  act(
    template
      .command('import')
      .description('install a .notifiertemplate bundle (POST /v1/templates/import)')
      .argument('[file]', 'the bundle file (or --file)')
      .option('--file <file>', 'the bundle file')
      .option('--app <id>', 'install it for this app (default: the app in the bundle)')
      .option('--keep-both', 'a template of that name exists: keep both, the new one numbered (default)')
      .option('--replace', 'a template of that name exists: replace it')
      .option('--fail', 'a template of that name exists: refuse (409)'),
    async (context) => {
      const given = context.args[0] as string | undefined;
      const { file: flagFile, app } = context.opts;
      if (given !== undefined && flagFile !== undefined) throw new UsageError('give the bundle once: FILE or --file FILE');
      const file = given ?? flagFile;
      if (file === undefined) throw new UsageError('give the bundle file: FILE or --file FILE');
      const conflict = onConflict(context.opts);
      await send(context, { method: 'POST', path: '/v1/templates/import', body: await importBody(file, app, conflict) });
    },
  );
}
