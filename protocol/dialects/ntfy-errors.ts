// The refusals of ntfy's dialect (docs/senders.md, "Refusals"): ntfy's own five-digit codes and its error JSON,
// `{"code", "http", "error"}`, so a client written for ntfy reads them as it reads ntfy's. One catalogue, one named
// constructor per refusal, as protocol/errors.ts is for Notifier's own shape.

/** A refusal in ntfy's terms: its HTTP status and its five-digit code (the status, then a number). */
export class NtfyError extends Error {
  constructor(
    readonly http: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'NtfyError';
  }
}

/** ntfy's error JSON: `{"code": 40007, "http": 400, "error": "invalid priority parameter"}`. */
export interface NtfyErrorBody {
  code: number;
  http: number;
  error: string;
}

export function ntfyErrorBody(error: NtfyError): NtfyErrorBody {
  return { code: error.code, http: error.http, error: error.message };
}

/** ntfy's codes for the statuses of the refusals a server makes besides the dialect's own (a door's, a limit's). */
const CODE_OF_STATUS: Readonly<Record<number, number>> = { 401: 40101, 403: 40301, 404: 40401, 413: 41301, 429: 42901, 500: 50001 };

/**
 * Another refusal (Notifier's own check of a field, a door's, the relay's) in ntfy's shape: its words, and ntfy's
 * code for its status where ntfy has one, else the status times 100.
 */
export const ntfyErrorOf = (status: number, message: string): NtfyError =>
  new NtfyError(status, CODE_OF_STATUS[status] ?? status * 100, message);

/** Why Notifier cannot do what ntfy's e-mail and phone-call options ask. */
const ON_THIS_SCREEN = "Notifier shows notifications on this computer's screen";

/**
 * Every ntfy refusal, made in one place. The codes are ntfy's (clients and scripts match on them); ntfy adds a detail
 * to a message after a comma, and so do these.
 */
export const ntfyErrors = {
  // What a publish request may get wrong
  badRequest: (why: string) => new NtfyError(400, 40000, `invalid request: ${why}`),
  emailUnsupported: () =>
    new NtfyError(
      400,
      40001,
      `e-mail notifications are not possible: ${ON_THIS_SCREEN} and sends no e-mail (leave out the email parameter)`,
    ),
  delayUnreadable: (given: string) =>
    new NtfyError(
      400,
      40004,
      `invalid delay parameter: unable to parse delay, ${JSON.stringify(given.slice(0, 40))} is not a duration (30m, 2h), a Unix time or a time of day (10am, 17:30)`,
    ),
  delayTooSmall: () => new NtfyError(400, 40005, 'invalid delay parameter: too small, at least 10 seconds (send it now instead)'),
  delayTooLarge: () => new NtfyError(400, 40006, 'invalid delay parameter: too large, at most 3 days'),
  priorityInvalid: (value: string) =>
    new NtfyError(
      400,
      40007,
      `invalid priority parameter, ${JSON.stringify(value)} is none of 1 to 5, min, low, default, high, max and urgent`,
    ),
  topicInvalid: () => new NtfyError(400, 40009, 'invalid request: topic invalid'),
  topicDisallowed: () => new NtfyError(400, 40010, 'invalid request: topic name is disallowed'),
  messageNotUTF8: () => new NtfyError(400, 40011, 'invalid message: message must be UTF-8 encoded'),
  attachmentURLInvalid: () => new NtfyError(400, 40013, 'invalid request: attachment URL is invalid'),
  uploadUnsupported: () =>
    new NtfyError(
      400,
      40014,
      'invalid request: attachments not allowed, Notifier keeps no uploaded files: give the file by its address with attach=<URL>',
    ),
  messageJSONInvalid: (why?: string) =>
    new NtfyError(400, 40017, `invalid request: request body must be message JSON${why ? `, ${why}` : ''}`),
  actionsInvalid: (why: string) => new NtfyError(400, 40018, `invalid request: actions invalid, ${why}`),
  tooManyActions: (count: number, max: number) =>
    new NtfyError(400, 40018, `invalid request: actions invalid, at most ${max} actions are allowed (got ${count})`),
  broadcastUnsupported: () =>
    new NtfyError(
      400,
      40018,
      'invalid request: actions invalid, broadcast actions are Android intents, which a desktop cannot send (use view or http)',
    ),
  iconURLInvalid: () => new NtfyError(400, 40021, 'invalid request: icon URL is invalid'),
  sequenceIdInvalid: (value: string) =>
    new NtfyError(400, 40000, `invalid request: sequence ID invalid, ${JSON.stringify(value)} is not 1 to 64 letters, digits, - and _`),
  phoneCallsUnsupported: () =>
    new NtfyError(400, 40035, `phone calls are not possible: ${ON_THIS_SCREEN} and places no phone calls (leave out the call parameter)`),

  // What the daemon maps its own refusals onto
  unauthorized: () => new NtfyError(401, 40101, 'unauthorized'),
  forbidden: () => new NtfyError(403, 40301, 'forbidden'),
  notFound: () => new NtfyError(404, 40401, 'page not found'),
  tooLarge: () => new NtfyError(413, 41301, 'message too large'),
  tooManyRequests: () => new NtfyError(429, 42901, 'limit reached: too many requests'),
};
