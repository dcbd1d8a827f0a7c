'use strict';
/**
 * Node client for Notifier, the local desktop notification service. Node 18 or later, no dependencies
 * (global `fetch` and `AbortSignal.timeout`).
 *
 * The implementation lives here, in the CommonJS file, and `notifier.mjs` re-exports these very objects: one copy
 * of the logic, and one class identity, so `instanceof NotifierError` holds whichever entry an error came from.
 *
 *   const { Notifier } = require('notifier-client');      // or: import { Notifier } from 'notifier-client';
 *   const id = await new Notifier().notify('my-app', 'Build finished', { body: 'All tests passed' });
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The port used when the support folder has no readable `port` file. */
const DEFAULT_PORT = 48617;
/** Milliseconds to wait for an answer before giving up with NotifierUnavailable. */
const DEFAULT_TIMEOUT_MS = 10_000;
/** GET /v1/history answers this many records when no limit is given. */
const DEFAULT_HISTORY_LIMIT = 50;
/** Seconds waitForReply waits for a reply when no timeout is given (the service's default). */
const DEFAULT_REPLY_WAIT_SECONDS = 60;
/**
 * Milliseconds a long wait's answer may take to come back after its own time limit: the client waits the wait plus
 * this, so it never gives up before the service answers "timed out".
 */
const WAIT_MARGIN_MS = 10_000;

const NOT_RUNNING = 'Notifier is not running. Start it with `notifier daemon` first.';

/** Notifier answered with an error status; `message` is the reply's `error` text (the raw reply when it has none). */
class NotifierError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {{cause?: unknown}} [options]
   */
  constructor(status, message, options) {
    super(message, options);
    this.name = 'NotifierError';
    this.status = status;
  }
}

/** Nothing answered: Notifier is not running, or it did not answer within the timeout. `status` is 0. */
class NotifierUnavailable extends NotifierError {
  /**
   * @param {string} [message]
   * @param {{cause?: unknown}} [options]
   */
  constructor(message = NOT_RUNNING, options) {
    super(0, message, options);
    this.name = 'NotifierUnavailable';
  }
}

/**
 * The support folder a Notifier started without options uses (the daemon's own rules): `NOTIFIER_SUPPORT_DIR`,
 * else macOS `~/Library/Application Support/Notifier`, Windows `%APPDATA%\Notifier`, elsewhere
 * `$XDG_DATA_HOME/notifier` or `~/.local/share/notifier`.
 */
function defaultSupportDir(env = process.env) {
  if (env.NOTIFIER_SUPPORT_DIR) return path.resolve(env.NOTIFIER_SUPPORT_DIR);
  return platformSupportDir(env);
}

/** The platform's place for Notifier's support folder, whatever NOTIFIER_SUPPORT_DIR says. */
function platformSupportDir(env) {
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Notifier');
  if (process.platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'Notifier');
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'notifier');
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * The `port` file when it holds digits only (and a real port number). Without one, DEFAULT_PORT for the platform's
 * own folder only; null for a folder of its own: its Notifier is stopped, and whatever answers on the default port
 * is another one.
 */
function readPort(folder) {
  const text = readText(path.join(folder, 'port'));
  const port = text && /^[0-9]+$/.test(text) ? Number(text) : 0;
  if (port > 0 && port < 65536) return port;
  return path.resolve(folder) === platformSupportDir(process.env) ? DEFAULT_PORT : null;
}

/** A copy without undefined and null values: "not given" is never sent. */
function given(fields) {
  const out = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** The reply's `error` text; else the raw reply; else the status text. */
function errorMessage(text, response) {
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON: the raw text is the message
  }
  return text.trim() || response.statusText || `status ${response.status}`;
}

class Notifier {
  #token;

  /**
   * @param {{port?: number, token?: string, timeoutMs?: number, supportDir?: string}} [options]
   *   `port`: default read from the support folder's `port` file once it is there (48617 when it is missing or not
   *   a number and the folder is the platform's own; null for a folder of its own without one, read again on the
   *   next call).
   *   `token`: default read from the support folder's `token` file on every call.
   *   `timeoutMs`: per request, default 10000. `supportDir`: default NOTIFIER_SUPPORT_DIR, else the platform's.
   */
  constructor(options = {}) {
    this.supportDir = options.supportDir !== undefined ? path.resolve(options.supportDir) : defaultSupportDir();
    this.port = options.port !== undefined ? Number(options.port) : readPort(this.supportDir);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#token = options.token;
  }

  /** `http://127.0.0.1:<port>`; null while the port is not known. */
  get baseURL() {
    return this.port === null ? null : `http://127.0.0.1:${this.port}`;
  }

  /**
   * True when Notifier answers GET /v1/health, false when it answers with an error status.
   * Throws NotifierUnavailable when nothing answers (clients/README.md#errors: the caller can tell "not running"
   * from "broken").
   */
  async isAvailable() {
    try {
      await this.health();
      return true;
    } catch (error) {
      if (error instanceof NotifierUnavailable) throw error;
      if (error instanceof NotifierError) return false;
      throw error;
    }
  }

  /** GET /v1/health: `{ok: true, version, pid}`. Needs no token. */
  health() {
    return this.#request('GET', '/v1/health', { auth: false });
  }

  /**
   * Shows a notification and resolves to its id. `fields` are notification fields (body, subtitle, image, url,
   * template, buttons, persistent, ...); any other key becomes a template field. Undefined and null are left out.
   */
  async notify(app, title, fields = {}) {
    const reply = await this.#request('POST', '/v1/notify', { body: given({ ...fields, app, title }) });
    return String(reply.id);
  }

  /** Registers or updates an app: appName, callbackURL, defaults, allowCommands. */
  async register(app, fields = {}) {
    await this.#request('POST', '/v1/register', { body: given({ ...fields, app }) });
  }

  /** Closes one banner. An id that is not on screen is not an error. */
  async dismiss(app, id) {
    await this.#request('POST', '/v1/dismiss', { body: { app, id } });
  }

  /** Closes every banner of `app`; with no app, every banner of every app. Records stay in History. */
  async dismissAll(app) {
    await this.#request('POST', '/v1/dismissAll', { body: given({ app }) });
  }

  /** The newest History records of `app` (every app when undefined), newest first. */
  async history(app, limit = DEFAULT_HISTORY_LIMIT) {
    return (await this.#request('GET', '/v1/history', { query: given({ app, limit }) })).items;
  }

  /**
   * Deletes `app`'s History records. An empty app is refused here: Notifier reads it as "every app", and one empty
   * variable should not wipe everybody's History (send DELETE /v1/history yourself for that).
   */
  async clearHistory(app) {
    if (typeof app !== 'string' || app === '') throw new TypeError('clearHistory needs an app id');
    await this.#request('DELETE', '/v1/history', { query: { app } });
  }

  /** The registered apps: objects with `app` and, when set, `appName`, `defaults`, ... */
  async apps() {
    return (await this.#request('GET', '/v1/apps')).apps;
  }

  /**
   * GET /v1/replies: what the person typed into reply fields, oldest first (`{notificationId, app, title?, text,
   * repliedAt}` each). `app`: only this app's queue; `since`: only replies after this moment (a Date, epoch
   * seconds or an ISO 8601 text); `consume: true` removes the replies returned from the queue.
   */
  async replies({ app, since, consume = false } = {}) {
    const query = given({ app, since: since instanceof Date ? since.toISOString() : since, consume: consume ? 'true' : undefined });
    return (await this.#request('GET', '/v1/replies', { query })).replies;
  }

  /**
   * GET /v1/replies/wait: resolves to the person's reply to notification `id`, or null when `timeout` seconds (1 to
   * 300, default 60) pass first. A reply already waiting comes at once; with `app`, so does one already on the
   * History record. The reply returned leaves the queue unless `consume: false`. The request waits `timeout` plus a
   * margin, whatever `timeoutMs` says.
   */
  async waitForReply(id, { app, timeout = DEFAULT_REPLY_WAIT_SECONDS, consume = true } = {}) {
    const query = given({ id, app, timeout, consume: consume ? undefined : 'false' });
    const timeoutMs = Math.max(this.timeoutMs, timeout * 1000 + WAIT_MARGIN_MS);
    const answer = await this.#request('GET', '/v1/replies/wait', { query, timeoutMs });
    return answer.replied ? answer.reply : null;
  }

  /** POST /v1/snooze: hides the banner and brings it back after `minutes` (more than 0, at most 43200); resolves to when (ISO 8601). */
  async snooze(app, id, minutes) {
    return String((await this.#request('POST', '/v1/snooze', { body: { app, id, minutes } })).until);
  }

  /** POST /v1/unsnooze: brings a snoozed banner back now (quietly). Not snoozed: nothing happens. */
  async unsnooze(app, id) {
    await this.#request('POST', '/v1/unsnooze', { body: { app, id } });
  }

  async #request(method, route, { body, query, auth = true, timeoutMs = this.timeoutMs } = {}) {
    if (this.port === null) this.port = readPort(this.supportDir); // the instance may have started since
    if (this.port === null) throw new NotifierUnavailable(`Notifier is not running: there is no port file in ${this.supportDir}.`);
    const url = new URL(route, this.baseURL);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, String(value));
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const token = auth ? (this.#token ?? readText(path.join(this.supportDir, 'token'))) : undefined;
    if (token) headers.Authorization = `Bearer ${token}`;

    let response;
    let text;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text(); // the timeout covers the body too
    } catch (error) {
      throw unavailable(error, timeoutMs);
    }
    if (!response.ok) throw new NotifierError(response.status, errorMessage(text, response));
    try {
      return text ? JSON.parse(text) : {};
    } catch {
      throw new NotifierError(response.status, `Notifier answered something that is not JSON: ${text.slice(0, 200)}`);
    }
  }
}

/**
 * fetch's own failures: the timeout, or a TypeError whose `cause` is the network error (refused, reset, ...).
 * Checked by name, not instanceof: fetch's errors may come from another realm (a vm context, jest).
 */
function unavailable(error, timeoutMs) {
  // Our timeout signal is the only abort; some Node 18 releases report it as an AbortError.
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError') {
    return new NotifierUnavailable(`Notifier did not answer within ${timeoutMs} ms.`, { cause: error });
  }
  if (error?.name === 'TypeError' && error.cause !== undefined) return new NotifierUnavailable(NOT_RUNNING, { cause: error });
  return error; // a mistake of the caller's, such as a token that cannot be a header
}

module.exports = { Notifier, NotifierError, NotifierUnavailable, defaultSupportDir, DEFAULT_PORT, DEFAULT_TIMEOUT_MS };

// Demo: `node notifier.cjs "Title" ["Body"]` sends one notification from app `notifier-node`
// (exit 2 when Notifier is not running, 1 on any other error).
if (require.main === module) {
  const [title, body] = process.argv.slice(2);
  if (!title || process.argv.length > 4) {
    console.error('usage: node notifier.cjs "Title" ["Body"]');
    process.exitCode = 1;
  } else {
    new Notifier().notify('notifier-node', title, { body }).then(
      (id) => console.log(id),
      (error) => {
        if (error instanceof NotifierUnavailable) {
          console.error(error.message);
          process.exitCode = 2;
        } else if (error instanceof NotifierError) {
          console.error(`Notifier refused the notification: ${error.message} (status ${error.status})`);
          process.exitCode = 1;
        } else {
          console.error(error);
          process.exitCode = 1;
        }
      },
    );
  }
}
