// `notifier settings` (the general settings) and `notifier quiet` (quiet hours: ad hoc, status, off).

import { type Command, Option } from 'commander';
import { UsageError, clockTime, keyValues, positiveNumber } from '../args.js';
import { act, routeCommand, send, sendPicked, showingGroup } from './common.js';

/** KEY=VALUE words: at least one. */
function pairs(words: string[]): Record<string, unknown> {
  if (words.length === 0) throw new UsageError('give at least one KEY=VALUE');
  return keyValues(words);
}

/**
 * What `settings set` prints: the settings it changed with their values now, and the note of a moved port; not
 * the whole reply, which also carries every setting, its schema and the choices (the voice list) (docs/cli.md).
 */
function whatWasApplied(reply: { applied?: string[]; settings?: Record<string, unknown>; note?: string }): unknown {
  const applied = Object.fromEntries((reply.applied ?? []).map((key) => [key, reply.settings?.[key] ?? null]));
  return { applied, ...(reply.note ? { note: reply.note } : {}) };
}

export function registerSettingsCommands(program: Command): void {
  const settings = showingGroup(program, 'settings', '/v1/settings', { group: 'show the settings', shown: ['get', 'show the settings'] });
  act(
    settings
      .command('set')
      .description('change settings (PUT /v1/settings); a value that reads as JSON keeps its type')
      .argument('<KEY=VALUE...>', 'for example muteAllSounds=true historyCapPerApp=500'),
    (context) => sendPicked(context, { method: 'PUT', path: '/v1/settings', body: pairs(context.args[0] as string[]) }, whatWasApplied),
  );

  const quiet = program
    .command('quiet')
    .description('quiet hours now: until a time or for some minutes (PUT /v1/settings/quiet-hours)')
    .addOption(new Option('--until <HH:MM>', 'quiet until this time (its next occurrence)').argParser(clockTime))
    .addOption(new Option('--for <minutes>', 'quiet for this many minutes').argParser(positiveNumber))
    .option('--banners', 'hold banners too (by default only speech and sounds are held)');
  act(quiet, async (context) => {
    const { until, for: minutes, banners } = context.opts;
    if ((until === undefined) === (minutes === undefined)) {
      throw new UsageError("give exactly one of --until HH:MM and --for MINUTES (or 'quiet status', 'quiet off')");
    }
    const adHoc = { ...(until !== undefined ? { until } : { minutes }), ...(banners ? { banners: true } : {}) };
    await send(context, { method: 'PUT', path: '/v1/settings/quiet-hours', body: { adHoc } });
  });
  routeCommand(quiet, 'status', 'show quiet hours and whether they are on', 'GET', '/v1/settings/quiet-hours');
  act(quiet.command('off').description('end quiet hours now (PUT /v1/settings/quiet-hours {"resume": true})'), (context) =>
    send(context, { method: 'PUT', path: '/v1/settings/quiet-hours', body: { resume: true } }),
  );
}
