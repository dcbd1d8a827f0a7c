// The words for a relay that cannot be reached (daemon/core/relay/relay-calls.ts, docs/api/relay-connection.md#rl3): the
// system's codes, as fetch (in `cause`) and the socket's library (on the error itself) give them.

import { describe, expect, test } from '@jest/globals';
import { networkProblem } from '../../../../daemon/core/relay/relay-calls.js';

const systemError = (code: string, message = `${code} something`) => Object.assign(new Error(message), { code });
const fetchError = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: systemError(code) });

describe('why the relay cannot be reached, in words', () => {
  test.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'its name was not found (DNS)'],
    ['EAI_AGAIN', 'its name could not be looked up now (DNS)'],
    ['ETIMEDOUT', 'no answer in time'],
    ['UND_ERR_CONNECT_TIMEOUT', 'no answer in time'],
    ['ECONNRESET', 'the connection was reset'],
    ['EHOSTUNREACH', 'no route to it: is the network up?'],
    ['CERT_HAS_EXPIRED', 'its TLS certificate has expired'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'its TLS certificate is self-signed, which this computer does not trust'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'its TLS certificate is signed by an authority this computer does not trust'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'its TLS certificate is for another name'],
    ['CERT_REVOKED', 'its TLS certificate was not accepted (CERT_REVOKED)'],
  ])('%s: %s, from fetch and from the socket', (code, words) => {
    expect(networkProblem(fetchError(code))).toBe(words);
    expect(networkProblem(systemError(code))).toBe(words);
  });

  test("a timeout of the call's own, the socket's handshake timeout, and an unknown failure", () => {
    expect(networkProblem(Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }))).toBe(
      'no answer within 15 s',
    );
    expect(networkProblem(new Error('Opening handshake has timed out'))).toBe('no answer in time');
    expect(networkProblem(new Error('Unexpected server response: 200'))).toBe('Unexpected server response: 200');
  });
});
