// `notifier notify` and `notifier register`: flags become the fields of the notification object
// (docs/api/notifications.md#the-notification-object) and of the app registration
// (docs/api/apps.md#post-v1-register); `--json FILE|-` gives a body the flags merge on top of.

import { type Command, Option } from 'commander';
import { CORNERS, LAYOUTS, PRESENTATIONS, PRIORITIES } from '../../protocol/types.js';
import { REGISTER_TIMEOUT_RANGE, SPEECH_SPEED } from '../../protocol/limits.js';
import {
  type Json,
  type JsonObject,
  UsageError,
  collect,
  defined,
  followUpAfter,
  jsonObjectOption,
  localPathArgument,
  mergeOnTop,
  nonNegativeNumber,
  numberIn,
  parseButton,
  parseReminder,
  positiveInteger,
  notifyFollowUp,
  readJsonObject,
  ANSWER_WAIT_SECONDS,
  answerWait,
  sortedJson,
} from '../args.js';
import { printReply } from '../client.js';
import { type Context, act, ask, jsonOption, send } from './common.js';
import { answerOfWait, waitForAnswer } from './replies.js';

/** The colour forms the service takes (protocol/schemas/notification.ts); `#RRGGBB` is the usual one. */
const ACCENT = /^#([0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/;

function accentColor(text: string): string {
  if (!ACCENT.test(text)) throw new UsageError(`--accent must be a hex colour such as #1E90FF, not ${text}`);
  return text;
}

/**
 * `--no-subtitle`, `--no-body`, `--no-time` share commander's attribute with `--subtitle <text>` and
 * `--body <text>`: they are recorded apart, so `--body X --no-body` keeps the text and sends `showBody: false`.
 */
function trackHidden(command: Command): { hidden: Set<string>; texts: Map<string, string> } {
  const hidden = new Set<string>();
  const texts = new Map<string, string>();
  for (const part of ['subtitle', 'body', 'time']) command.on(`option:no-${part}`, () => hidden.add(part));
  for (const part of ['subtitle', 'body']) command.on(`option:${part}`, (text: string) => texts.set(part, text));
  return { hidden, texts };
}

/** The `speak` field: an object when text, voice, speed or lang is given, else `true` for `--speak`. */
function speakField(opts: Record<string, any>): Json | undefined {
  const details = defined({ text: opts.speakText, voice: opts.voice, speed: opts.speed, lang: opts.lang });
  if (Object.keys(details).length > 0) return details;
  return opts.speak ? true : undefined;
}

function notificationFromFlags(opts: Record<string, any>, { hidden, texts }: ReturnType<typeof trackHidden>): JsonObject {
  return defined({
    app: opts.app,
    id: opts.id,
    title: opts.title,
    subtitle: texts.get('subtitle'),
    body: texts.get('body'),
    image: opts.image === undefined ? undefined : localPathArgument(opts.image),
    url: opts.url,
    group: opts.group,
    sound: opts.sound,
    timeout: opts.timeout,
    persistent: opts.persistent,
    snooze: opts.snooze,
    priority: opts.priority,
    metadata: opts.metadata,
    template: opts.template,
    layout: opts.layout,
    accentColor: opts.accent === undefined ? undefined : accentColor(opts.accent),
    showSubtitle: hidden.has('subtitle') ? false : undefined,
    showBody: hidden.has('body') ? false : undefined,
    showTimestamp: hidden.has('time') ? false : undefined,
    maxBodyLines: opts.maxBodyLines,
    speak: speakField(opts),
    audio: opts.audio === undefined ? undefined : localPathArgument(opts.audio),
    presentation: opts.presentation,
    buttons: opts.button,
    reminder: opts.reminder,
    followUp: notifyFollowUp({
      after: opts.followUpAfter,
      shortcut: opts.followUpShortcut,
      script: opts.followUpScript,
      command: opts.followUpCommand,
      ref: opts.followUpRef,
      input: opts.followUpInput,
    }),
  });
}

async function withJsonBody(context: Context, flags: JsonObject): Promise<JsonObject> {
  return context.json === undefined ? flags : mergeOnTop(await readJsonObject(context.json), flags);
}

function registerNotify(program: Command): void {
  const notify = program
    .command('notify')
    .description('show a notification (POST /v1/notify)')
    .option('--app <id>', 'id of the sending app (required)')
    .option('--id <id>', "the notification's id; reusing one replaces the banner")
    .option('--title <text>', 'headline (required unless a template gives one)')
    .option('--subtitle <text>', 'second line')
    .option('--no-subtitle', 'hide the subtitle line (sends showSubtitle: false)')
    .option('--body <text>', 'main text; Markdown links work')
    .option('--no-body', 'hide the body (sends showBody: false)')
    .option('--no-time', 'hide the time (sends showTimestamp: false)')
    .option('--image <file|url>', 'picture: a file, an https URL or a data: URI')
    .option('--url <link>', 'link opened on click (http, https, mailto)')
    .option('--group <key>', 'stacking key')
    .option('--sound <name>', 'default, a system sound, a file or none')
    .option('--timeout <seconds>', 'seconds until the banner closes itself (0: no timer of its own)', nonNegativeNumber)
    .option('--persistent', 'keep the banner until dismissed')
    .option('--no-persistent', 'let the banner close itself')
    .option('--snooze', 'add the snooze menu')
    .option('--no-snooze', 'no snooze menu')
    .addOption(new Option('--priority <level>', 'priority').choices(PRIORITIES))
    .option('--metadata <json>', 'template field values, a JSON object', jsonObjectOption)
    .option('--template <name>', "one of the app's templates")
    .addOption(new Option('--layout <layout>', 'built-in layout').choices(LAYOUTS))
    .option('--accent <#RRGGBB>', 'accent colour')
    .option('--max-body-lines <n>', 'body lines shown before the text is cut', positiveInteger)
    .option('--speak', 'say title and body aloud')
    .option('--speak-text <text>', 'say this text instead')
    .option('--voice <id>', 'voice for the speech')
    .option(
      '--speed <n>',
      `speech speed, ${SPEECH_SPEED.min} to ${SPEECH_SPEED.max}`,
      numberIn(SPEECH_SPEED.min, SPEECH_SPEED.max, { what: 'a speed' }),
    )
    .option('--lang <code>', 'language of the speech, such as en-us')
    .option('--audio <file|url>', 'recorded voice message to play')
    .addOption(new Option('--presentation <how>', 'banner, voice (speech only) or both').choices(PRESENTATIONS))
    .option(
      '--button <Label[=target]>',
      'a button (repeatable): Label=https://..., cmd:<command>, script:<file>, shortcut:<name>, cb:<JSON>, reply:<placeholder>; a bare Label just closes the banner',
      collect(parseButton),
    )
    .option('--reminder <Title|ISO8601>', 'add a reminder button: a title, and a due date after the last |', parseReminder)
    .option(
      '--follow-up-after <duration>',
      'run the follow-up when unattended this long: seconds, 90s, 10m, 2h (5 s to 7 days)',
      followUpAfter,
    )
    .option('--follow-up-shortcut <name>', 'follow-up: run this shortcut')
    .option('--follow-up-script <file>', 'follow-up: run this script from the scripts folder')
    .option('--follow-up-command <command>', 'follow-up: run this shell command')
    .option('--follow-up-ref <button>', "follow-up: run this button's action (its id or label)")
    .option('--follow-up-input <text>', 'follow-up: text handed to the shortcut or script')
    .option(
      '--wait [duration]',
      `then wait for the answer (a button pressed, a reply typed) and print it; seconds or 90s, 10m, 2h (default ${ANSWER_WAIT_SECONDS.default}); exit 3 when the time is up, 4 when the banner ended unanswered`,
      answerWait,
    )
    .addOption(jsonOption());
  const shown = trackHidden(notify);
  act(notify, async (context) => {
    const body = await withJsonBody(context, notificationFromFlags(context.opts, shown));
    if (body.app === undefined || body.app === '') throw new UsageError('--app is required');
    if ((body.title === undefined || body.title === '') && (body.template === undefined || body.template === '')) {
      throw new UsageError('--title is required (or --template naming a template that gives one)');
    }
    const wait = context.opts.wait as number | true | undefined;
    if (wait === undefined) return send(context, { method: 'POST', path: '/v1/notify', body });
    await sendAndWait(context, body, wait === true ? ANSWER_WAIT_SECONDS.default : wait);
  });
}

/**
 * `notify --wait`: sends, then waits on GET /v1/replies/wait with `ended`, so a button pressed ends the wait as a
 * reply does (docs/cli.md#waiting-for-the-person). Prints one JSON object: the answer, or how the wait ended.
 */
async function sendAndWait(context: Context, body: JsonObject, seconds: number): Promise<void> {
  const sent = await ask(context, { method: 'POST', path: '/v1/notify', body });
  if (!sent) return;
  const id = String((sent.json as { id: string }).id);
  const app = String(body.app);
  const reply = await waitForAnswer(context, { id, app, seconds, ended: true });
  if (reply.status !== 200) {
    process.exitCode = printReply(reply);
    return;
  }
  const { printed, exitCode } = answerOfWait(id, app, reply.json);
  process.stdout.write(`${sortedJson(printed)}\n`);
  process.exitCode = exitCode;
}

function registerRegister(program: Command): void {
  const register = program
    .command('register')
    .description('register an app or update its registration (POST /v1/register)')
    .option('--app <id>', 'app id (required)')
    .option('--name <name>', 'display name on banners')
    .option('--icon <file|data-uri>', 'icon: a file or a data:image/png;base64 URI')
    .option('--bundle-id <id>', 'bundle id of the app (brought forward by openApp buttons)')
    .option('--callback-url <url>', 'where callback buttons without their own URL post')
    .option('--allow-commands', "ask the person to let the app's buttons run commands, scripts and shortcuts")
    .option('--no-allow-commands', 'withdraw that request')
    .option('--sound <name>', 'default sound')
    .option(
      '--timeout <seconds>',
      `default seconds until banners close (${REGISTER_TIMEOUT_RANGE.min}: never)`,
      numberIn(REGISTER_TIMEOUT_RANGE.min, REGISTER_TIMEOUT_RANGE.max, { what: 'seconds' }),
    )
    .option('--persistent', 'banners stay until dismissed by default')
    .option('--no-persistent', 'banners close themselves by default')
    .addOption(new Option('--corner <corner>', 'screen corner of the banners').choices(CORNERS))
    .addOption(jsonOption());
  act(register, async (context) => {
    const { opts } = context;
    const defaults = defined({ sound: opts.sound, timeout: opts.timeout, persistent: opts.persistent, corner: opts.corner });
    const flags = defined({
      app: opts.app,
      appName: opts.name,
      icon: opts.icon === undefined ? undefined : localPathArgument(opts.icon),
      bundleId: opts.bundleId,
      callbackURL: opts.callbackUrl,
      allowCommands: opts.allowCommands,
      defaults: Object.keys(defaults).length > 0 ? defaults : undefined,
    });
    const body = await withJsonBody(context, flags);
    if (body.app === undefined || body.app === '') throw new UsageError('--app is required');
    await send(context, { method: 'POST', path: '/v1/register', body });
  });
}

export function registerNotifyCommands(program: Command): void {
  registerNotify(program);
  registerRegister(program);
}
