// Where a request came from, and the relay's own origin as the client reached it (docs/relay.md, "Behind a
// proxy, with TLS"). With RELAY_TRUST_PROXY, Express takes the client address and the scheme and host from the
// X-Forwarded-* headers of the trusted proxies; otherwise from the connection and the Host header.

import type { Request } from 'express';
import { hashAddress } from '../core/credentials.js';

/** A host as it may appear in a link: a name or address, and a port (anything else is not used). */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The origin absolute links are built from: audio links, the OAuth documents and redirects, the 401 challenge (RA48, RA62, RA100). */
export function requestOrigin(req: Request): string {
  const host = req.host && HOST.test(req.host) ? req.host : `localhost:${req.socket.localPort ?? ''}`;
  return `${req.protocol === 'https' ? 'https' : 'http'}://${host}`;
}

/** RA11: the client address, hashed; the relay never keeps an address in clear. */
export function clientAddressHash(req: Request): string {
  return hashAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}
