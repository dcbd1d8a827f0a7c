// A relay's address as this computer takes it (docs/api/relay-connection.md#rl2): the rule the pairing route
// applies and the `notifier relay pair` command checks before sending anything, in one place both may import.

/** The addresses a token may travel to in clear text: this computer's own (docs/api/relay-connection.md#rl2). */
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * RL2: a relay's address as given to `POST /v1/relay/pair`: https, or http only on a loopback host; no user name,
 * password, query or fragment. Returned without a trailing slash (the routes are added to it); null when it breaks
 * the rule.
 */
export function relayAddress(text: string): string | null {
  const url = parsed(text);
  if (url === null || addressProblem(text, url) !== null) return null;
  return url.href.replace(/\/+$/, '');
}

/**
 * Why a text is not a relay address (RL2), said as what to type instead; null when it is one. The CLI checks the
 * command line with it and the pairing route words its 400 with it.
 */
export function relayAddressProblem(text: string): string | null {
  return addressProblem(text, parsed(text));
}

/** A scheme written out: `example.org:8787` parses as a URL of scheme `example.org:`, which is not what was meant. */
const HAS_SCHEME = /^([a-z][a-z0-9+.-]*:\/\/|https?:)/i;
const EXAMPLES = 'https://relay.example.org, or http://127.0.0.1:8787 for a relay on this computer';

function parsed(text: string): URL | null {
  try {
    return HAS_SCHEME.test(text.trim()) ? new URL(text.trim()) : null;
  } catch {
    return null;
  }
}

function addressProblem(text: string, url: URL | null): string | null {
  const given = text.trim();
  if (given === '') return `give the relay's address, such as ${EXAMPLES}`;
  if (!HAS_SCHEME.test(given)) {
    // The scheme is missing: the same text with the one that would be taken.
    const host = parsed(`http://${given}`)?.hostname;
    const suggestion = host !== undefined && LOOPBACK_HOSTS.test(host) ? `http://${given}` : `https://${given}`;
    return `the address needs https:// (or http:// for a relay on this computer): did you mean ${suggestion}?`;
  }
  if (url === null || url.hostname === '') return `not a web address; give one such as ${EXAMPLES}`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.test(url.hostname)) {
    const secure = new URL(url.href);
    secure.protocol = 'https:';
    return `http:// is only for a relay on this computer (localhost, 127.0.0.1, [::1]): the device token must not cross a network in clear text; use ${secure.href.replace(/\/+$/, '')}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `a relay's address starts with https://, such as ${EXAMPLES}`;
  if (url.username || url.password || url.search || url.hash) {
    return `the address takes no user name, password, query or fragment: ${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }
  return null;
}
