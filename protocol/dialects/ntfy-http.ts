// An ntfy publish as an HTTP server receives it, made into the request the dialect reads (ntfy.ts). The daemon and
// the relay both serve ntfy's paths, each with its own router, and read a publish from Node's request the same way.

import { type NtfyRequest, utf8Headers } from './ntfy.js';

/** What the dialect needs of Node's request (an express Request is one): its method and its headers. */
export interface NtfyHttpRequest {
  method?: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** The query's parameters; most publishes have none, and then no URL is parsed (the base only completes the URL). */
function queryOf(url: string): URLSearchParams {
  return url.includes('?') ? new URL(url, 'http://ntfy.invalid').searchParams : new URLSearchParams();
}

/**
 * The request the dialect reads: `url` is the path as it was sent (its query with it), `topic` the path's topic
 * (undefined for `POST /`), `body` the body's bytes.
 */
export function ntfyRequest(req: NtfyHttpRequest, url: string, topic: string | undefined, body: Buffer): NtfyRequest {
  return { method: req.method as NtfyRequest['method'], topic, headers: utf8Headers(req.headers), query: queryOf(url), body };
}
