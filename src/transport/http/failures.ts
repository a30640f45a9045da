/**
 * Turns what went wrong in one HTTP exchange into an `McpError`: network failures before a response
 * (with an honest `delivery`), aborts, and non-2xx statuses (3xx never followed, 401/403 with the parsed
 * challenge, 404 session expiry). Messages name the operation and origin+path, never headers or tokens.
 */
import { McpError } from '../../errors/index.js';
import { redact } from '../../internal/redact.js';
import { parseWwwAuthenticate } from '../../protocol/www-authenticate.js';

/** Who fired the abort: the caller's signal (cancel) or the connection's `close()`. */
export type AbortCause = 'cancelled' | 'closed';

/**
 * Error codes meaning the request bytes certainly never left: no TCP/TLS connection was made. The
 * request body is only written after connect (and the TLS handshake) succeeded.
 */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
]);

/** The `code` of an error or of the first error in its cause chain / AggregateError. */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    const inner = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.length > 0) {
      const first = errorCode(inner[0]);
      if (first !== undefined) return first;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** An abort, as seen by the caller: cancel → `cancelled`, close → `closed`; both `unknown` once sent. */
export function abortError(label: string, cause: AbortCause, sent: boolean, error?: unknown): McpError {
  const delivery = sent ? 'unknown' : 'not_sent';
  if (cause === 'closed')
    return new McpError('closed', `${label}: the connection was closed`, { delivery, cause: error });
  return new McpError('cancelled', `${label}: cancelled`, { delivery, cause: error });
}

/** A failure before any response arrived (connect, DNS, TLS, socket reset). */
export function networkError(label: string, error: unknown): McpError {
  const code = errorCode(error);
  const neverSent = code !== undefined && NEVER_SENT_CODES.has(code);
  return new McpError(
    'transport',
    `${label}: ${code ?? 'network error'}${neverSent ? ' (request not sent)' : ''}`,
    {
      delivery: neverSent ? 'not_sent' : 'unknown',
      cause: error,
    },
  );
}

/**
 * The error for a status that has no usable JSON-RPC body. `sessionSent` turns 404 into session expiry
 * (S25/basic/transports: "MUST start a new session"). 502/503/504 may come from a gateway that never
 * reached the server, or lost it mid-way: delivery `unknown`; other answers are the server's: `delivered`.
 */
export function statusError(
  label: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  sessionSent: boolean,
): McpError {
  if (status >= 300 && status < 400) {
    return new McpError(
      'transport',
      `${label}: HTTP ${status} redirect${redirectTarget(headers['location'])}; redirects are not followed (configure the final URL)`,
      { status, delivery: 'delivered' },
    );
  }
  if (status === 401 || status === 403) {
    const challenges = parseWwwAuthenticate(headers['www-authenticate']);
    const challenge = challenges.find((c) => /^(bearer|dpop)$/i.test(c.scheme)) ?? challenges[0];
    const kind = status === 401 ? 'auth_required' : 'forbidden';
    const what = status === 401 ? 'authorization required' : 'forbidden';
    // Redacted before it is cut, so that a cut cannot leave half a secret for the message's redactor to miss.
    const detail = challenge?.error === undefined ? '' : ` (${clip(redact(challenge.error, 65), 64)})`;
    return new McpError(kind, `${label}: HTTP ${status} ${what}${detail}`, {
      status,
      delivery: 'delivered',
      ...(challenge === undefined ? {} : { challenge }),
    });
  }
  if (status === 404 && sessionSent) {
    return new McpError('session_expired', `${label}: HTTP 404, the session is gone; initialize again`, {
      status,
      delivery: 'delivered',
    });
  }
  const delivery = status === 502 || status === 503 || status === 504 ? 'unknown' : 'delivered';
  return new McpError('transport', `${label}: HTTP ${status}`, { status, delivery });
}

/** " to https://host" for a Location header: the origin only, as its path or query may carry secrets. */
function redirectTarget(location: string | string[] | undefined): string {
  const value = Array.isArray(location) ? location[0] : location;
  if (value === undefined) return '';
  try {
    return ` to ${new URL(value).origin}`;
  } catch {
    return ' to a relative location';
  }
}

/** `text` with anything but printable ASCII as `?`, cut to `max` characters (then `…`); cut first. */
function clip(text: string, max: number): string {
  const safe = text.slice(0, max + 1).replace(/[^\x20-\x7e]/g, '?');
  return safe.length > max ? `${safe.slice(0, max)}…` : safe;
}
