// The computer's side of the cloud relay (docs/api/relay-connection.md, docs/relay-desktop.md): pairing, the socket,
// relayed notifications and their receipts, connector approvals, and the management calls of `/v1/relay/*`.
// It needs a few things of the core, named in RelayHost so this folder never imports the core that wires it.

import os from 'node:os';
import type {
  RelayConnectorsAnswer,
  RelayKeysAnswer,
  RelayPairAnswer,
  RelayPairRequest,
  RelayStatusAnswer,
  RelayUsageAnswer,
} from '../../../protocol/app-api-relay.js';
import { errors } from '../../../protocol/errors.js';
import { KEY_ID_PATTERN, SUBSCRIPTION_ID_PATTERN, type AgentKeyView } from '../../../protocol/relay/device-api.js';
import type { AckFrame, DeviceStatus, HelloFrame, SenderKey, StatusFrame } from '../../../protocol/relay/frames.js';
import { readRelayFrame } from '../../../protocol/relay/inbound.js';
import { MAX_DEVICE_NAME_CHARS } from '../../../protocol/relay/limits.js';
import type { ReceiptInput } from '../../../protocol/relay/receipts.js';
import type { AppRegistration, HistoryRecord, ReplyRecord } from '../../../protocol/types.js';
import { secretStore, SecretUnavailable, type SecretPlace, type SecretStore } from '../../integrations/secret-service.js';
import { log } from '../../log.js';
import type { Presenter } from '../../present/presenter.js';
import type { Document, Store } from '../../store/store.js';
import type { NotificationInput } from '../notifications/checks.js';
import type { Withdrawal } from '../scheduled/withdraw.js';
import { ConnectorApprovals, type Decision, type DecisionResult } from './connectors.js';
import { cloudAppId, Deliveries } from './deliveries.js';
import { instructionsFor, type InstructionsClient } from './instructions.js';
import { Outbox } from './outbox.js';
import { relayAddress, relayAddressProblem } from '../../../protocol/relay/address.js';
import { callRelay, expectSuccess, mcpAddress, streamAddress, type RelayCall } from './relay-calls.js';
import { RelaySocket } from './socket.js';
import { watchWakeUps } from './wake.js';

/** RL1: what identifies the pairing on disk (`relay/relay.json`); never the token. */
interface PairingFile {
  relayURL?: string;
  deviceId?: string;
  pairedAt?: string;
  lastSeenAt?: string;
  tokenStore?: SecretPlace;
}

/** RL4: the status of `GET /v1/relay/status` (the Relay page reads the same answer). */
export type RelayStatus = RelayStatusAnswer;

/** An agent key as the relay lists it (docs/relay-api.md#ra22). */
export type RelayKey = AgentKeyView;

/** What the relay needs of the core. */
export interface RelayHost {
  notify(input: NotificationInput): Promise<string>;
  /** Keeps a notification to show at `at` (the scheduled notifications). */
  schedule(input: NotificationInput, at: Date): Promise<unknown>;
  /** Takes back a notification its sender sent earlier. */
  withdraw(app: string, id: string, how: Withdrawal): Promise<void>;
  record(app: string, id: string): HistoryRecord | undefined;
  registration(app: string): AppRegistration | undefined;
  register(registration: AppRegistration): Promise<void>;
  appName(app: string): string;
  readonly presenter: Pick<Presenter, 'ask' | 'withdraw'>;
  /** RL11: quiet hours and mute as the relay may know them. */
  deviceStatus(): DeviceStatus;
  /** Calls back whenever quiet hours or mute may have changed. */
  onDeviceStatusChange(listener: () => void): void;
  onReply(listener: (reply: ReplyRecord) => void): void;
  onSpoken(listener: (app: string, id: string) => void): void;
  /** Calls back after a scheduled notification showed. */
  onScheduledShown(listener: (app: string, id: string) => void): void;
}

export interface RelayServiceOptions {
  store: Store;
  supportDir: string;
  host: RelayHost;
  /** Where the device token goes; default the Secret Service, else the support folder's 0600 file. */
  secrets?: SecretStore;
  /** The keep-alive interval; default 300 s. */
  pingSeconds?: number;
}

const DEVICE_ID = /^[0-9a-f]{48}$/;
/** RL1: the token a relay hands out at pairing (docs/relay-api.md#ra1). */
const DEVICE_TOKEN = /^hrd_[0-9a-f]{48}_[0-9a-f]{64}$/;
/** A key the relay does not know yet makes the list be read again, at most this often. */
const KEYS_REFRESH_MIN_MS = 30_000;
/** RL4: how often a token kept in a locked (or not running) keyring is read again, until it is there. */
const KEYRING_RETRY_MS = 5_000;

/** RL10: this computer's name on the relay (its host name), cut as the relay cuts it. */
const deviceName = (): string => os.hostname().slice(0, MAX_DEVICE_NAME_CHARS);

export class RelayService {
  readonly connectors: ConnectorApprovals;
  private socket: RelaySocket | null = null;
  private token: string | null = null;
  private starting = false;
  /** Why the token cannot be read now (its keyring is locked or not running), and when it is read again. */
  private keyringWait: { why: string; timer: NodeJS.Timeout; at: number } | null = null;
  private rejected = false;
  private keys = new Map<string, RelayKey>();
  private keysReadAt = 0;
  private lastStatus = '';
  private wake: { stop(): void } | null = null;
  private exclusive: Promise<unknown> = Promise.resolve();
  private readonly secrets: SecretStore;

  private constructor(
    private readonly options: RelayServiceOptions,
    private readonly pairing: Document<PairingFile>,
    private readonly outbox: Outbox,
    private readonly deliveries: Deliveries,
    connectors: ConnectorApprovals,
  ) {
    this.connectors = connectors;
    this.secrets =
      options.secrets ??
      secretStore({ supportDir: options.supportDir, account: 'relay-device-token', label: 'Notifier: device token of the cloud relay' });
    const { host } = options;
    host.onDeviceStatusChange(() => this.statusChanged());
    host.onReply((reply) => void this.deliveries.replied(reply.app, reply.notificationId, reply.text).catch(logFailure('a reply')));
    host.onSpoken((app, id) => void this.deliveries.spoken(app, id).catch(logFailure('a spoken receipt')));
    host.onScheduledShown((app, id) => void this.deliveries.shown(app, id).catch(logFailure('a scheduled notification')));
  }

  static async open(options: RelayServiceOptions): Promise<RelayService> {
    const { store, host } = options;
    const pairing = await store.open<PairingFile>('relay/relay.json', {});
    const outbox = await Outbox.open(store);
    let service!: RelayService;
    const deliveries = await Deliveries.open(store, {
      notify: (input) => host.notify(input),
      schedule: (input, at) => host.schedule(input, at),
      withdraw: (app, id, how) => host.withdraw(app, id, how),
      record: (app, id) => host.record(app, id),
      appFor: (key) => service.appFor(key),
      displayName: (app) => host.appName(app),
      ack: (id) => void service.socket?.send(JSON.stringify({ type: 'ack', id } satisfies AckFrame)),
      receipt: (receipt) => service.receipt(receipt),
    });
    const connectors = new ConnectorApprovals({ presenter: host.presenter, decide: (id, decision) => service.decide(id, decision) });
    service = new RelayService(options, pairing, outbox, deliveries, connectors);
    return service;
  }

  get paired(): boolean {
    return this.pairing.data.relayURL !== undefined && this.pairing.data.deviceId !== undefined;
  }

  /**
   * At start: a paired computer reads its token and connects (RL10). A token in a keyring that is locked or not
   * running is read again every KEYRING_RETRY_MS until it is there (RL4). Never throws.
   */
  async resume(): Promise<void> {
    if (!this.paired) return;
    this.starting = true;
    const token = await this.secrets.read(this.pairing.data.tokenStore).catch((error: Error) => error);
    if (token instanceof SecretUnavailable) return this.waitForKeyring(token.message);
    this.stopKeyringWait();
    if (token instanceof Error) return log.warn(`relay: could not read the device token: ${token.message}`);
    this.token = token;
    if (token) return this.connect();
    this.rejected = true;
    log.warn('relay: paired, but the device token is gone (the keyring was reset?); pair again');
  }

  /** RL4: never fails, paired or not; never the token or a code. */
  status(): RelayStatus {
    const { relayURL, deviceId, pairedAt, lastSeenAt, tokenStore } = this.pairing.data;
    const base = { waitingReceipts: this.outbox.size, pendingApprovals: this.connectors.listed().length };
    if (!this.paired) return { paired: false, state: 'unpaired', online: false, ...base };
    const socket = this.socket;
    const state = this.rejected ? 'rejected' : this.starting ? 'starting' : (socket?.state ?? 'offline');
    const problem = this.rejected
      ? "the relay rejected this computer's token; pair again"
      : this.keyringWait
        ? `the keyring that holds the device token cannot be read: ${this.keyringWait.why}`
        : socket?.lastProblem;
    const nextAttemptAt = this.keyringWait?.at ?? (state !== 'online' ? socket?.nextAttemptAt : undefined);
    return {
      paired: true,
      state,
      online: state === 'online',
      relayURL,
      mcpURL: mcpAddress(relayURL!),
      deviceId,
      ...(pairedAt ? { pairedAt } : {}),
      ...(lastSeenAt ? { lastSeenAt } : {}),
      ...(tokenStore ? { tokenStore } : {}),
      ...(problem ? { problem } : {}),
      ...(nextAttemptAt ? { nextAttemptAt: new Date(nextAttemptAt).toISOString() } : {}),
      ...base,
    };
  }

  /**
   * RL1: pairs with the relay at `relayURL` (start, then pair at once with the code, which nobody ever sees), keeps
   * the token, connects, and prunes this computer's older entries. Pairing again replaces an earlier pairing.
   */
  pair(input: RelayPairRequest): Promise<RelayPairAnswer> {
    return this.serialized(async () => {
      const relayURL = relayAddress(input.relayURL);
      if (!relayURL) throw errors.invalidField('relayURL', relayAddressProblem(input.relayURL) ?? 'an https URL');
      const name = deviceName();
      const secret = input.pairingSecret ? { 'X-Pairing-Secret': input.pairingSecret } : undefined;
      const started = pairingStep(
        await callRelay(relayURL, {
          method: 'POST',
          path: '/v1/pair/start',
          body: { deviceName: name },
          ...(secret && { headers: secret }),
        }),
      );
      const paired = pairingStep(
        await callRelay(relayURL, { method: 'POST', path: '/v1/pair', body: { code: started.code, deviceName: name } }),
      );
      if (!DEVICE_ID.test(String(paired.deviceId)) || !DEVICE_TOKEN.test(String(paired.deviceToken))) {
        throw errors.relayFailed('it answered the pairing without a device id and token');
      }
      const before = { ...this.pairing.data, token: this.token };
      const tokenStore = await this.secrets.write(paired.deviceToken);
      this.stopSocket();
      this.stopKeyringWait();
      this.token = paired.deviceToken;
      this.rejected = false;
      this.pairing.data = { relayURL, deviceId: paired.deviceId, pairedAt: new Date().toISOString(), tokenStore };
      await this.options.store.save(this.pairing);
      if (before.deviceId !== paired.deviceId) await Promise.all([this.outbox.clear(), this.deliveries.clear()]);
      this.connectors.clear();
      this.keys.clear();
      this.connect();
      log.info(`relay: paired with ${relayURL} as ${paired.deviceId} (token kept in the ${tokenStore})`);
      void this.afterPairing(before);
      return { paired: true as const, deviceId: paired.deviceId as string };
    });
  }

  /**
   * RL5: tells the relay to forget this computer (`DELETE /v1/device`; 401 and 404 mean it already has), then
   * forgets the token and everything of the pairing. With `force`, a relay that cannot be told does not stop it.
   */
  unpair(force: boolean): Promise<{ unpaired: true }> {
    return this.serialized(async () => {
      this.requirePaired();
      // RL5: the relay cannot be told without the token; only `force` forgets the pairing then.
      if (this.keyringWait && !force) throw errors.relayTokenUnavailable(this.keyringWait.why);
      if (this.token) {
        const answer = await callRelay(this.relayURL, { method: 'DELETE', path: '/v1/device', token: this.token }).catch(
          (error: unknown) => {
            if (!force) throw error;
            return null;
          },
        );
        if (answer && answer.status !== 401 && answer.status !== 404 && !force) expectSuccess(answer);
      }
      this.stopSocket();
      this.stopKeyringWait();
      await this.secrets.remove(this.pairing.data.tokenStore);
      this.token = null;
      this.rejected = false;
      this.pairing.data = {};
      this.keys.clear();
      this.connectors.clear();
      await Promise.all([this.options.store.save(this.pairing), this.outbox.clear(), this.deliveries.clear()]);
      log.info('relay: unpaired');
      return { unpaired: true as const };
    });
  }

  // --- The management calls (RL6 to RL9): each one call to the relay with the device token. ---

  async listKeys(): Promise<RelayKeysAnswer> {
    const { keys } = await this.device({ method: 'GET', path: '/v1/device/keys' });
    this.rememberKeys(keys);
    return { keys };
  }

  /** RL6: a new agent key, shown once; its app is registered under its name. */
  async createKey(name: string, client: string | undefined) {
    const made = await this.device({ method: 'POST', path: '/v1/device/keys', body: { name, ...(client !== undefined && { client }) } });
    await this.ensureApp({ id: made.id, name: made.name, client: made.client });
    void this.refreshKeys();
    const mcpURL = mcpAddress(this.relayURL);
    return {
      id: made.id as string,
      name: made.name as string,
      client: made.client as string,
      scope: made.scope as string,
      key: made.key as string,
      mcpURL,
      connectorConfig: { mcpServers: { notifier: { type: 'http', url: mcpURL, headers: { Authorization: `Bearer ${made.key}` } } } },
    };
  }

  async revokeKey(id: string): Promise<{ revoked: true; id: string }> {
    if (!KEY_ID_PATTERN.test(id)) throw errors.invalidField('id', 'a key id: 8 hex digits');
    const answer = await this.device({ method: 'DELETE', path: `/v1/device/keys/${id}` });
    void this.refreshKeys();
    return { revoked: true, id: answer.id ?? id };
  }

  /** RL7: the connectors (OAuth keys) and the requests waiting for the person, without their codes. */
  async listConnectors(): Promise<RelayConnectorsAnswer> {
    const [{ keys }, { consents }] = await Promise.all([this.listKeys(), this.device({ method: 'GET', path: '/v1/device/consents' })]);
    this.connectors.sync(
      (Array.isArray(consents) ? consents : []).flatMap((consent: unknown) => {
        const frame = readRelayFrame(JSON.stringify({ ...(consent as object), type: 'consent' }));
        return frame?.type === 'consent' ? [frame] : [];
      }),
    );
    return { connectors: keys.filter((key) => key.kind === 'oauth' && !key.revokedAt), pending: this.connectors.listed() };
  }

  /** RL8: today's counters, without the relay's limits. */
  async usage(): Promise<Omit<RelayUsageAnswer, 'limits'>> {
    const { limits: _limits, ...usage } = await this.usageWithLimits();
    return usage;
  }

  /**
   * Today's counters with the relay's limits, as the relay answers them (docs/relay-api.md#ra26): the person's window
   * shows one against the other.
   */
  async usageWithLimits(): Promise<RelayUsageAnswer> {
    return this.device({ method: 'GET', path: '/v1/device/usage' });
  }

  /** RL9: the reply-event subscriptions, never their addresses' paths or secrets. */
  async events() {
    const answer = await this.device({ method: 'GET', path: '/v1/device/events' });
    const subscriptions = (Array.isArray(answer.subscriptions) ? answer.subscriptions : []).map((sub: any) => ({
      id: sub.id,
      event: sub.event,
      host: sub.host,
      key: { id: sub.key?.id, name: sub.key?.name, ...(sub.key?.displayName ? { displayName: sub.key.displayName } : {}) },
      createdAt: sub.createdAt,
      pending: sub.pending,
    }));
    return { restrictedTo: Array.isArray(answer.restrictedTo) ? answer.restrictedTo : [], subscriptions };
  }

  async endSubscription(id: string): Promise<{ removed: true; id: string }> {
    if (!SUBSCRIPTION_ID_PATTERN.test(id)) throw errors.invalidField('id', 'a subscription id: sub_ and 20 hex digits');
    await this.device({ method: 'DELETE', path: `/v1/device/events/subscriptions/${id}` });
    return { removed: true, id };
  }

  /** RL9: how to connect an agent of this kind to this relay. */
  instructions(client: InstructionsClient): { client: InstructionsClient; text: string } {
    this.requirePaired();
    return { client, text: instructionsFor(client, this.relayURL) };
  }

  async close(): Promise<void> {
    this.stopSocket();
    this.stopKeyringWait();
    this.connectors.clear();
    await this.options.store.settle();
  }

  // --- Inside ---

  private get relayURL(): string {
    return this.pairing.data.relayURL!;
  }

  private requirePaired(): void {
    if (!this.paired) throw errors.relayNotPaired();
  }

  /** One device call; a 401 marks the token rejected (RL3). */
  private async device(call: Omit<RelayCall, 'token'>): Promise<any> {
    this.requirePaired();
    if (this.keyringWait) throw errors.relayTokenUnavailable(this.keyringWait.why);
    if (!this.token) throw errors.relayRejectedToken();
    return expectSuccess(await callRelay(this.relayURL, { ...call, token: this.token }), () => this.markRejected());
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.exclusive.then(work, work);
    this.exclusive = next.catch(() => undefined);
    return next;
  }

  private connect(): void {
    this.stopSocket();
    const socket = new RelaySocket({
      url: streamAddress(this.relayURL),
      relayURL: this.relayURL,
      token: this.token!,
      ...(this.options.pingSeconds ? { pingSeconds: this.options.pingSeconds } : {}),
      events: {
        online: () => void this.cameOnline(socket),
        frame: (text) => this.received(text),
        offline: () => {
          if (socket.state === 'rejected') this.markRejected();
        },
      },
    });
    this.socket = socket;
    socket.start();
    void watchWakeUps((reason) => {
      log.info(`relay: ${reason === 'network' ? 'the network is back' : 'the computer woke up'}; reconnecting now`);
      this.socket?.reconnectNow();
    }).then((watching) => {
      if (this.socket === socket) this.wake = watching;
      else watching.stop();
    });
  }

  private stopSocket(): void {
    this.socket?.stop();
    this.socket = null;
    this.wake?.stop();
    this.wake = null;
  }

  /** RL4: the token's keyring is locked or not running: `starting`, with why, until a later read finds it. */
  private waitForKeyring(why: string): void {
    if (this.keyringWait) clearTimeout(this.keyringWait.timer);
    else log.warn(`relay: the device token cannot be read now (${why}); trying again every ${KEYRING_RETRY_MS / 1000} s`);
    // One read at a time with pairing and unpairing; either of them ends the wait.
    const again = async () => {
      if (this.keyringWait?.timer === timer) await this.resume();
    };
    const timer = setTimeout(() => void this.serialized(again), KEYRING_RETRY_MS);
    timer.unref();
    this.keyringWait = { why, timer, at: Date.now() + KEYRING_RETRY_MS };
  }

  /** The read is over: it found the token (or not), or a pairing or unpairing replaced it. */
  private stopKeyringWait(): void {
    if (this.keyringWait) clearTimeout(this.keyringWait.timer);
    this.keyringWait = null;
    this.starting = false;
  }

  private markRejected(): void {
    if (this.rejected) return;
    this.rejected = true;
    this.stopSocket();
    log.warn("relay: the relay rejected this computer's token; pair again");
  }

  /** RL11: `hello` with the status, then the receipts that waited, then the key names. */
  private async cameOnline(socket: RelaySocket): Promise<void> {
    this.pairing.data.lastSeenAt = new Date().toISOString();
    void this.options.store.save(this.pairing);
    const status = this.options.host.deviceStatus();
    this.lastStatus = JSON.stringify(status);
    if (!(await socket.send(JSON.stringify({ type: 'hello', ...status } satisfies HelloFrame)))) return;
    await this.outbox.flush((receipt) => socket.send(JSON.stringify(receipt)));
    void this.refreshKeys();
  }

  /** RL11: `status` only when quiet hours or mute changed since the last one sent. */
  private statusChanged(): void {
    const socket = this.socket;
    if (!socket?.online) return;
    const status = this.options.host.deviceStatus();
    const text = JSON.stringify(status);
    if (text === this.lastStatus) return;
    this.lastStatus = text;
    void socket.send(JSON.stringify({ type: 'status', ...status } satisfies StatusFrame));
  }

  /** RL20: one frame from the relay, read as untrusted input. */
  private received(text: string): void {
    const frame = readRelayFrame(text);
    if (!frame) return;
    switch (frame.type) {
      case 'notify':
        void this.deliveries.deliver(frame).catch(logFailure(`notification ${frame.id}`));
        return;
      case 'consent':
        this.connectors.received(frame);
        return;
      case 'consent_resolved':
        this.connectors.resolved(frame.id);
        if (frame.status === 'approved') void this.refreshKeys();
        return;
      case 'welcome':
        return;
    }
  }

  /** RL33: a receipt is on disk before it is sent; it leaves the file once the socket took it. */
  private async receipt(receipt: ReceiptInput): Promise<void> {
    await this.outbox.add({ type: 'receipt', ...receipt });
    const socket = this.socket;
    if (socket?.online) await this.outbox.flush((waiting) => socket.send(JSON.stringify(waiting)));
  }

  /** RL42: the person's answer to a connector request, to the relay. */
  private async decide(id: string, decision: Decision): Promise<DecisionResult> {
    try {
      await this.device({ method: 'POST', path: '/v1/device/consent', body: { id, decision } });
      if (decision === 'approve') void this.refreshKeys();
      return { taken: true };
    } catch (error) {
      const status = (error as { status?: number }).status;
      // 409: already decided (on the relay's page, with the code); 410: expired; 404: the relay no longer has it.
      const closed = status === 409 || status === 410 || status === 404;
      return { taken: false, closed, problem: (error as Error).message };
    }
  }

  /** RL21: the app of a sender, registered under its display name (a connector's name for OAuth keys). */
  private async appFor(key: SenderKey): Promise<string> {
    if (!this.keys.has(key.id)) void this.refreshKeys({ unlessRecent: true });
    return this.ensureApp(key);
  }

  private async ensureApp(key: SenderKey): Promise<string> {
    const app = cloudAppId(key.name);
    const known = this.keys.get(key.id);
    const appName = known?.displayName || known?.name || key.name || app;
    if (this.options.host.registration(app)?.appName !== appName) await this.options.host.register({ app, appName });
    return app;
  }

  /** Reads the key list again (names of OAuth connectors), quietly: the management routes report failures. */
  private async refreshKeys(options: { unlessRecent?: boolean } = {}): Promise<void> {
    if (!this.paired || !this.token || this.rejected) return;
    if (options.unlessRecent && Date.now() - this.keysReadAt < KEYS_REFRESH_MIN_MS) return;
    this.keysReadAt = Date.now();
    await this.listKeys().catch((error: Error) => log.info(`relay: the key list could not be read: ${error.message}`));
  }

  private rememberKeys(keys: RelayKey[]): void {
    this.keys = new Map(keys.filter((key) => !key.revokedAt).map((key) => [key.id, key]));
    for (const key of this.keys.values()) {
      const app = cloudAppId(key.name);
      // Only apps that exist already get their name updated; a key makes its app when it first sends.
      if (this.options.host.registration(app)) void this.ensureApp(key).catch(logFailure(`the app of key ${key.name}`));
    }
  }

  /** After pairing: drop this computer's older entries on the relay, and tell an earlier relay it is gone. */
  private async afterPairing(before: PairingFile & { token: string | null }): Promise<void> {
    await this.device({ method: 'POST', path: '/v1/device/prune', body: {} }).catch(logFailure('pruning older entries'));
    if (before.relayURL && before.token && before.deviceId !== this.pairing.data.deviceId) {
      await callRelay(before.relayURL, { method: 'DELETE', path: '/v1/device', token: before.token }).catch(
        logFailure('unpairing from the earlier relay'),
      );
    }
  }
}

/** A pairing call's answer: 2xx gives its JSON; a refused pairing secret is the caller's mistake (403), not ours. */
function pairingStep(answer: { status: number; json: any }): any {
  if (answer.status === 401) throw errors.relayRefused(403, String(answer.json?.message ?? 'the pairing secret is missing or wrong'));
  return expectSuccess(answer);
}

const logFailure =
  (what: string) =>
  (error: Error): void =>
    log.warn(`relay: ${what} failed: ${error.message}`);
