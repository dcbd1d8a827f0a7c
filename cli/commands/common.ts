// What every client command shares: the global options (--support-dir, --port, --token, --json) wherever they are
// written, the action wrapper that turns problems into the tool's exit codes, and sending one request.

import { type Command, Option } from 'commander';
import { UsageError, parsePort } from '../args.js';
import { type ServiceReply, type ServiceRequest, ServiceUnavailable, type Target, callService, printReply } from '../client.js';

export interface Context {
  command: Command;
  /** This command's own options. */
  opts: Record<string, any>;
  /** This command's arguments, after their parsers. */
  args: any[];
  /** `--support-dir`, `--port` and `--token`, from this command or the nearest one above that has them. */
  target: Target;
  /** `--json FILE|-` (only notify and register take it). */
  json?: string;
}

/** The global options as a client command takes them after its name: hidden in its help, shown once globally. */
export function addGlobalOptions(command: Command): void {
  const names = new Set(command.options.map((option) => option.attributeName()));
  if (!names.has('supportDir')) command.addOption(new Option('--support-dir <folder>', "the service's support folder").hideHelp());
  if (!names.has('port')) command.addOption(new Option('--port <n>', 'port to call').argParser(parsePort).hideHelp());
  if (!names.has('token')) command.addOption(new Option('--token <token>', 'bearer token').hideHelp());
  if (!names.has('json')) command.addOption(new Option('--json <file>', 'JSON body (notify and register only)').hideHelp());
}

/** The value of an option on this command or the nearest command above it that has it. */
function nearest(command: Command, name: string): any {
  for (let at: Command | null = command; at; at = at.parent) {
    const value = at.getOptionValue(name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Commands that take a `--json` body declare it themselves with this option. */
export const jsonOption = (): Option =>
  new Option('--json <file>', 'JSON object used as the body (- reads standard input); other flags merge on top');

/** notify and register declare `--json` themselves (jsonOption); elsewhere it is only the hidden global one. */
const takesJson = (command: Command): boolean => command.options.some((option) => option.long === '--json' && !option.hidden);

/**
 * The command's action: a UsageError exits 1 with `notifier: <message>` and a usage hint (through commander's
 * own error path, so it looks like commander's errors); a service that does not answer exits 2.
 */
export function act(command: Command, handler: (context: Context) => Promise<void>): Command {
  return command.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    const context: Context = {
      command: self,
      opts: self.opts(),
      args: self.processedArgs,
      target: { supportDir: nearest(self, 'supportDir'), port: nearest(self, 'port'), token: nearest(self, 'token') },
      json: nearest(self, 'json'),
    };
    try {
      if (context.json !== undefined && !takesJson(self)) {
        throw new UsageError('--json is only for notify and register');
      }
      await handler(context);
    } catch (error) {
      if (error instanceof UsageError) self.error(error.message);
      if (error instanceof ServiceUnavailable) {
        process.stderr.write(`${error.message}\n`);
        process.exitCode = 2;
        return;
      }
      throw error;
    }
  });
}

/** Sends one request and prints the reply; the exit code follows its status. */
export async function send(context: Context, request: ServiceRequest): Promise<void> {
  process.exitCode = printReply(await callService(request, context.target));
}

/** Like `send`, but a 2xx reply is printed as `pick` makes it (an error status is printed whole). */
export async function sendPicked(context: Context, request: ServiceRequest, pick: (json: any) => unknown): Promise<void> {
  const reply = await ask(context, request);
  if (reply) process.exitCode = printReply({ ...reply, json: pick(reply.json) });
}

/**
 * Sends one request for a command that uses the reply itself (writes a file): an error status is printed as
 * `send` prints it and gives null.
 */
export async function ask(context: Context, request: ServiceRequest): Promise<ServiceReply | null> {
  const reply = await callService(request, context.target);
  if (reply.status >= 200 && reply.status < 300) return reply;
  process.exitCode = printReply(reply);
  return null;
}

/** The words of a command that is one route: what it does, then the route, as `notifier help` shows it. */
const routeDescription = (what: string, route: string): string => `${what} (${route})`;

/**
 * A command group that shows one thing, `GET path`, both bare (`notifier relay`) and as its subcommand `shown`
 * (`notifier relay status`); the group's other subcommands are added to the group it returns.
 */
export function showingGroup(parent: Command, name: string, path: string, about: { group: string; shown: [string, string] }): Command {
  const group = parent.command(name).description(routeDescription(about.group, `GET ${path}`));
  act(group, (context) => send(context, { method: 'GET', path }));
  routeCommand(group, ...about.shown, 'GET', path);
  return group;
}

/** A command that is one route and takes no arguments: `METHOD path`, with this body (or none). */
export function routeCommand(parent: Command, name: string, what: string, method: 'GET' | 'POST', path: string, body?: unknown): Command {
  return act(parent.command(name).description(routeDescription(what, `${method} ${path}`)), (context) =>
    send(context, { method, path, body }),
  );
}

/** A command about one notification, `--app ID --id ID`: the two are sent to one route, as a DELETE's query or as the body. */
export function notificationCommand(parent: Command, name: string, what: string, method: 'POST' | 'DELETE', path: string): Command {
  const command = parent
    .command(name)
    .description(routeDescription(what, `${method} ${path}`))
    .requiredOption('--app <id>', 'app id')
    .requiredOption('--id <id>', 'notification id');
  return act(command, (context) => {
    const target = { app: context.opts.app as string, id: context.opts.id as string };
    return send(context, method === 'DELETE' ? { method, path, query: target } : { method, path, body: target });
  });
}

/** A command that removes one thing named by its argument `<id>`: `DELETE path/{id}`. */
export function deleteCommand(parent: Command, name: string, what: string, path: string, idHelp: string): Command {
  const command = parent
    .command(name)
    .description(routeDescription(what, `DELETE ${path}/{id}`))
    .argument('<id>', idHelp);
  return act(command, (context) => send(context, { method: 'DELETE', path: `${path}/${encodeURIComponent(context.args[0] as string)}` }));
}

/** A required option that commander cannot require (on a command that also has subcommands). */
export function required<T>(value: T | undefined, flag: string): T {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}
