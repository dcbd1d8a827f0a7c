// Commands about banners on screen and speech: speak, compose, snooze, unsnooze, dismiss, dismiss-all, stacks.

import type { Command } from 'commander';
import { SNOOZE_MAX_MINUTES, SPEECH_SPEED } from '../../protocol/limits.js';
import { UsageError, defined, numberIn } from '../args.js';
import { act, notificationCommand, routeCommand, send } from './common.js';

export function registerBannerCommands(program: Command): void {
  act(
    program
      .command('speak')
      .description('say a text aloud with no banner (POST /v1/speak)')
      .argument('[words...]', 'the text (or give --text)')
      .requiredOption('--app <id>', 'app id')
      .option('--text <text>', 'what to say')
      .option('--id <id>', 'id of the History entry')
      .option('--voice <id>', 'voice id')
      .option(
        '--speed <n>',
        `${SPEECH_SPEED.min} to ${SPEECH_SPEED.max}`,
        numberIn(SPEECH_SPEED.min, SPEECH_SPEED.max, { what: 'a speed' }),
      )
      .option('--lang <code>', 'language code such as en-us'),
    async (context) => {
      const { opts } = context;
      const words = context.args[0] as string[];
      if (opts.text !== undefined && words.length > 0) throw new UsageError('give the text once: --text or words, not both');
      const text = opts.text ?? words.join(' ');
      if (text.trim() === '') throw new UsageError('give the text to say: --text TEXT or words');
      await send(context, {
        method: 'POST',
        path: '/v1/speak',
        body: defined({ app: opts.app, text, id: opts.id, voice: opts.voice, speed: opts.speed, lang: opts.lang }),
      });
    },
  );

  routeCommand(program, 'compose', "open Notifier's window at Compose on this computer's desktop", 'POST', '/v1/compose');

  act(
    program
      .command('snooze')
      .description('hide a banner and bring it back later (POST /v1/snooze)')
      .requiredOption('--app <id>', 'app id')
      .requiredOption('--id <id>', 'notification id')
      .requiredOption(
        '--minutes <n>',
        `minutes, more than 0 and at most ${SNOOZE_MAX_MINUTES}`,
        numberIn(0, SNOOZE_MAX_MINUTES, { minExclusive: true, what: 'minutes' }),
      ),
    (context) =>
      send(context, {
        method: 'POST',
        path: '/v1/snooze',
        body: { app: context.opts.app, id: context.opts.id, minutes: context.opts.minutes },
      }),
  );

  notificationCommand(program, 'unsnooze', 'bring a snoozed banner back now', 'POST', '/v1/unsnooze');
  notificationCommand(program, 'dismiss', 'close one banner', 'POST', '/v1/dismiss');

  act(
    program
      .command('dismiss-all')
      .alias('dismissAll')
      .description("close every banner, or an app's, or one stack (POST /v1/dismissAll)")
      .option('--app <id>', "only this app's banners")
      .option('--group <group>', 'only this stack (needs --app)'),
    async (context) => {
      const { app, group } = context.opts;
      if (group !== undefined && app === undefined) throw new UsageError('--group needs --app: a stack belongs to one app');
      await send(context, { method: 'POST', path: '/v1/dismissAll', body: defined({ app, group }) });
    },
  );

  act(
    program.command('stacks').description('list the stacks on screen (GET /v1/stacks)').option('--app <id>', 'only this app'),
    (context) => send(context, { method: 'GET', path: '/v1/stacks', query: { app: context.opts.app } }),
  );
}
