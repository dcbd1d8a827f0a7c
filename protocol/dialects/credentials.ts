// Where a sender's credential is, in every form the clients of ntfy and Gotify send it (docs/api/keys.md#k4): the
// daemon reads a sending key (or its API token) this way, the relay an agent key. Pure: the caller gives the
// request's headers and target.

/** The secret of an `Authorization` value: a bearer token, or Basic's password (its user name when the password is empty). */
export function secretOfAuthorization(value: string | undefined): string | undefined {
  const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(value ?? '')?.[1];
  if (bearer !== undefined) return bearer;
  const basic = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value ?? '')?.[1];
  if (basic === undefined) return undefined;
  const pair = Buffer.from(basic, 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  if (colon < 0) return undefined;
  return pair.slice(colon + 1) || pair.slice(0, colon) || undefined;
}

/**
 * The secret a sender sent: `Authorization: Bearer`, Basic with the secret as password (`curl -u :KEY`, Apprise's
 * `ntfy://user:KEY@host/topic`), Gotify's `X-Gotify-Key`, ntfy's `?auth=` (an `Authorization` value in base64) and
 * Gotify's `?token=`, in that order.
 */
export function senderSecret(headers: { authorization?: string; 'x-gotify-key'?: string | string[] }, target: string): string | undefined {
  const fromHeader = secretOfAuthorization(headers.authorization) ?? headers['x-gotify-key'];
  if (typeof fromHeader === 'string') return fromHeader;
  if (!target.includes('?')) return undefined;
  const query = new URL(target, 'http://sender.invalid').searchParams;
  const auth = query.get('auth');
  if (auth) return secretOfAuthorization(Buffer.from(auth, 'base64url').toString('utf8'));
  return query.get('token') ?? undefined;
}
