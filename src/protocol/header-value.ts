/**
 * Encodes one value for an `Mcp-Name` or `Mcp-Param-*` header (2026-07-28), and decodes it back for tests.
 * Unsafe strings travel as `=?base64?<b64 of UTF-8>?=`: S26/basic/transports/streamable-http "Value encoding".
 * Pure; no I/O.
 */
import { McpError } from '../errors/index.js';

/** The Base64 form of a header value; the markers are lowercase and exact (S26/basic/transports/streamable-http). */
const SENTINEL = /^=\?base64\?[\s\S]*\?=$/i;
const STRICT_SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * True when `value` can travel as-is: every char in 0x20–0x7E (so no TAB, CR, LF or non-ASCII), no
 * leading or trailing space, and not already shaped like the Base64 sentinel. Our reading, stricter than
 * the wording of S26/basic/transports/streamable-http on TAB, which the conformance suite expects encoded.
 */
export function isHeaderSafe(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  if (value.startsWith(' ') || value.endsWith(' ')) return false;
  return !SENTINEL.test(value);
}

/**
 * Encodes a string, integer or boolean for an `Mcp-Name`/`Mcp-Param-*` header: strings as-is when safe
 * (else Base64), integers in decimal, booleans as `true`/`false`. Throws `McpError` kind `config` for
 * numbers that are not safe integers (the spec is silent on them; we treat them as a client error).
 */
export function encodeHeaderValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new McpError('config', `header value ${String(value)} is not an integer within ±(2^53−1)`);
    }
    return String(value);
  }
  if (isHeaderSafe(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** Decodes a header value produced by `encodeHeaderValue` (the Base64 form, or the raw value otherwise). */
export function decodeHeaderValue(raw: string): string {
  const match = STRICT_SENTINEL.exec(raw);
  if (match === null) return raw;
  return Buffer.from(match[1] ?? '', 'base64').toString('utf8');
}
