/**
 * Turns what went wrong in one HTTP exchange into an `McpError`: network failures before a response
 * (with an honest `delivery`), aborts, and non-2xx statuses (3xx never followed, 401/403 with the parsed
 * challenge, 404 session expiry, others with the server's own message from the body). Messages name the
 * operation and origin+path, never headers or tokens, and carry no delivery note: `delivery` is the note.
 */
import { McpError } from '../../errors/index.js';
import { redact } from '../../internal/redact.js';
import { terminalText } from '../../internal/terminal-text.js';
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

/** What the common network codes mean, for the message (the code itself is kept too). */
const CODE_TEXT: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the response body stalled',
  EPIPE: 'connection closed while sending',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate does not name this host',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'a self-signed TLS certificate (pass ca)',
  SELF_SIGNED_CERT_IN_CHAIN: 'a self-signed certificate in the TLS chain (pass ca)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the TLS certificate cannot be verified (pass ca)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the TLS certificate issuer is unknown (pass ca)',
  CERT_HAS_EXPIRED: 'the TLS certificate has expired',
};

/** Longest server message quoted from an error body, in characters. */
export const SERVER_MESSAGE_MAX = 300;

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
  const known = code === undefined ? undefined : CODE_TEXT[code];
  const what = code === undefined ? 'network error' : known === undefined ? code : `${known} (${code})`;
  // No "(request not sent)" here: `delivery` says it, once, whoever wraps or renders this error.
  return new McpError('transport', `${label}: ${what}`, {
    delivery: neverSent ? 'not_sent' : 'unknown',
    cause: error,
  });
}

/**
 * The error for a status that has no usable JSON-RPC body. `sessionSent` turns 404 into session expiry
 * (S25/basic/transports: "MUST start a new session"). 502/503/504 may come from a gateway that never
 * reached the server, or lost it mid-way: delivery `unknown`; other answers are the server's: `delivered`.
 * `said` is what the server's body says (see `serverMessage`), quoted after the status.
 */
export function statusError(
  label: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  sessionSent: boolean,
  said?: string,
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
    // The body's own words after it (see `serverMessage` for leaving out the challenge's error code).
    const quoted = said === undefined || said === '' || said === challenge?.error ? '' : `: ${said}`;
    return new McpError(kind, `${label}: HTTP ${status} ${what}${detail}${quoted}`, {
      status,
      delivery: 'delivered',
      ...(challenge === undefined ? {} : { challenge }),
      ...(quoted === '' || said === undefined ? {} : { detail: said }),
    });
  }
  if (status === 404 && sessionSent) {
    return new McpError('session_expired', `${label}: HTTP 404, the session is gone; initialize again`, {
      status,
      delivery: 'delivered',
    });
  }
  const delivery = status === 502 || status === 503 || status === 504 ? 'unknown' : 'delivered';
  const quoted = said === undefined || said === '' ? '' : `: ${said}`;
  return new McpError('transport', `${label}: HTTP ${status}${quoted}`, {
    status,
    delivery,
    ...(said === undefined || said === '' ? {} : { detail: said }),
  });
}

/**
 * What an error body says, as one line of at most `SERVER_MESSAGE_MAX` characters, or undefined: from
 * JSON, `error` (a string, or an object's `message`), `message`, `detail` or `title`, with
 * `error_description` after it (alone when the main text is `shown`, a code the message already gives, such as
 * a challenge's `error`); from text, its first non-empty line; from HTML, its `<title>`. Escape
 * sequences, control and bidi characters are removed and the text is redacted before it is cut.
 */
export function serverMessage(text: string, contentType: string, shown?: string): string | undefined {
  if (contentType === 'text/html' || /^\s*</.test(text)) return htmlTitle(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (value !== undefined) return fromJson(value, shown);
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '');
  return line === undefined ? undefined : oneLine(line);
}

/**
 * The `<title>` of an HTML error page (`403 Forbidden`, a proxy's or firewall's page), as one safe line, or
 * undefined. Found with `indexOf` in the first 64 K characters: linear, whatever the page holds.
 */
function htmlTitle(text: string): string | undefined {
  const lower = text.slice(0, 64 * 1024).toLowerCase();
  const open = lower.indexOf('<title');
  if (open < 0) return undefined;
  const start = lower.indexOf('>', open);
  const end = start < 0 ? -1 : lower.indexOf('</title', start);
  if (end < 0) return undefined;
  return oneLine(
    text.slice(start + 1, end).replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e] ?? ''),
  );
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** A non-blank string, or undefined. */
function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function fromJson(value: unknown, shown: string | undefined): string | undefined {
  if (typeof value === 'string') return oneLine(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  const nested = body['error'];
  const nestedMessage =
    typeof nested === 'object' && nested !== null
      ? textOf((nested as Record<string, unknown>)['message'])
      : undefined;
  const main =
    textOf(nested) ??
    nestedMessage ??
    textOf(body['message']) ??
    textOf(body['detail']) ??
    textOf(body['title']);
  const description = textOf(body['error_description']);
  if (main !== undefined && main === shown)
    return description === undefined ? undefined : oneLine(description);
  const said =
    main !== undefined && description !== undefined && description !== main
      ? `${main}: ${description}`
      : (main ?? description);
  return said === undefined ? undefined : oneLine(said);
}

/** Server text as one safe line (the one terminal sanitizer, see terminal-text.ts), redacted, cut (then `…`). */
function oneLine(text: string): string | undefined {
  // The values the caller handed in are masked before white space is collapsed, which would hide a value
  // holding a tab or two spaces from the exact match; the shape rules run again on the one line.
  const clean = terminalText(redact(text, SERVER_MESSAGE_MAX * 4), { oneLine: true })
    .replace(/\s+/g, ' ')
    .trim();
  if (clean === '') return undefined;
  return clip(redact(clean, SERVER_MESSAGE_MAX + 1), SERVER_MESSAGE_MAX, false);
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

/**
 * `text` cut to `max` characters (then `…`); cut first. With `ascii` (the default), anything but
 * printable ASCII becomes `?`.
 */
function clip(text: string, max: number, ascii = true): string {
  const cut = text.slice(0, max + 1);
  const safe = ascii ? cut.replace(/[^\x20-\x7e]/g, '?') : cut;
  return safe.length > max ? `${safe.slice(0, max)}…` : safe;
}
