// `notifier relay ...`: the cloud relay as this computer uses it (docs/cli.md#relay, docs/api/relay-connection.md). Each
// command is one route of /v1/relay/. None approves a connector or shows its code: the person does that on the
// banner or in the tray.

import { type Command, Argument, Option } from 'commander';
import { relayAddressProblem } from '../../protocol/relay/address.js';
import { INSTRUCTION_CLIENTS, RELAY_CLIENTS } from '../../protocol/schemas/relay.js';
import { UsageError } from '../args.js';
import { act, ask, deleteCommand, routeCommand, send, showingGroup } from './common.js';

export function registerRelayCommands(program: Command): void {
  const relay = showingGroup(program, 'relay', '/v1/relay/status', {
    group: 'the cloud relay: pairing, agent keys, connectors',
    shown: ['status', 'paired or not, online or not, the relay and its MCP address'],
  });

  act(
    relay
      .command('pair')
      .description('pair this computer with a relay (POST /v1/relay/pair)')
      .argument('<relay-url>', 'the relay: https://..., or http://127.0.0.1:... for one on this computer')
      .addOption(
        new Option('--pairing-secret <secret>', "the relay's pairing secret, when it has one").env('NOTIFIER_RELAY_PAIRING_SECRET'),
      ),
    async (context) => {
      const relayURL = context.args[0] as string;
      // The daemon would refuse it too; here the person is told what to type, and nothing is sent.
      const problem = relayAddressProblem(relayURL);
      if (problem !== null) throw new UsageError(`${relayURL} is not a relay's address: ${problem}`);
      const pairingSecret = context.opts.pairingSecret as string | undefined;
      return send(context, {
        method: 'POST',
        path: '/v1/relay/pair',
        body: { relayURL, ...(pairingSecret ? { pairingSecret } : {}) },
      });
    },
  );

  act(
    relay
      .command('unpair')
      .description('unpair this computer from its relay (POST /v1/relay/unpair)')
      .option('--force', 'forget the pairing even when the relay cannot be told'),
    (context) => send(context, { method: 'POST', path: '/v1/relay/unpair', body: context.opts.force ? { force: true } : {} }),
  );

  const keys = showingGroup(relay, 'keys', '/v1/relay/keys', {
    group: "the relay's agent keys",
    shown: ['list', 'every key, revoked ones too'],
  });
  act(
    keys
      .command('create')
      .description('make an agent key, shown this once (POST /v1/relay/keys)')
      .argument('<name>', '1 to 32 of a-z, 0-9 and -')
      .addOption(new Option('--client <client>', 'the agent').choices(RELAY_CLIENTS)),
    (context) => {
      const client = context.opts.client as string | undefined;
      return send(context, {
        method: 'POST',
        path: '/v1/relay/keys',
        body: { name: context.args[0] as string, ...(client ? { client } : {}) },
      });
    },
  );
  deleteCommand(keys, 'revoke', 'revoke an agent key', '/v1/relay/keys', "the key's id (8 hex digits)");

  routeCommand(relay, 'connectors', 'connectors approved, and requests waiting for you', 'GET', '/v1/relay/connectors');
  routeCommand(relay, 'usage', "today's use of the relay", 'GET', '/v1/relay/usage');

  const events = showingGroup(relay, 'events', '/v1/relay/events', {
    group: "connectors' reply-event subscriptions",
    shown: ['list', 'every subscription'],
  });
  deleteCommand(events, 'end', 'end a subscription', '/v1/relay/events/subscriptions', 'sub_ and 20 hex digits');

  act(
    relay
      .command('instructions')
      .description('how to connect an agent through the relay (GET /v1/relay/instructions)')
      .addArgument(new Argument('<client>', 'the agent').choices(INSTRUCTION_CLIENTS)),
    async (context) => {
      // The text itself, to read or paste; an error is printed as every command prints it.
      const reply = await ask(context, { method: 'GET', path: '/v1/relay/instructions', query: { client: context.args[0] as string } });
      if (reply) process.stdout.write(`${(reply.json as { text: string }).text}\n`);
    },
  );
}
