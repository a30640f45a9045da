/**
 * Strict base64 for `autos-mcp/content`: the decoded size read from the length alone (so a limit is
 * checked before anything is decoded), a validator, and the decoder.
 *
 * Accepted: the standard alphabet (`A–Z a–z 0–9 + /`), with the `=` padding or without it, in canonical
 * form (the unused bits of the last character are zero). Refused: whitespace and line breaks, the URL-safe
 * alphabet (`-` `_`), `data:` prefixes, misplaced or excess `=`, a length that is 1 more than a multiple
 * of 4. The empty string is valid and decodes to zero bytes.
 */

const BODY = /^[A-Za-z0-9+/]*$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** How many `=` end `text` (only the last two characters are looked at). */
function padding(text: string): number {
  if (!text.endsWith('=')) return 0;
  return text.endsWith('==') ? 2 : 1;
}

/**
 * The number of bytes `text` decodes to if it is valid, read from its length and its last two characters
 * only: constant time, whatever the length. For invalid text it is an estimate; `isStrictBase64` decides.
 */
export function decodedLength(text: string): number {
  const body = text.length - padding(text);
  const rest = body % 4;
  return Math.floor(body / 4) * 3 + (rest === 0 ? 0 : rest - 1);
}

/** True when `text` is strict base64 (see the file comment). Linear in the length; no allocation. */
export function isStrictBase64(text: string): boolean {
  const pad = padding(text);
  const bodyLength = text.length - pad;
  const rest = bodyLength % 4;
  if (rest === 1) return false;
  // Padding, when present, completes the last group exactly: 2 characters take `==`, 3 take `=`.
  if (pad > 0 && (text.length % 4 !== 0 || rest === 0)) return false;
  const body = pad === 0 ? text : text.slice(0, bodyLength);
  if (!BODY.test(body)) return false;
  if (rest === 0) return true;
  // Canonical form: the bits of the last character that fall outside the decoded bytes are zero.
  const last = ALPHABET.indexOf(body.charAt(bodyLength - 1));
  return (last & (rest === 2 ? 0b1111 : 0b11)) === 0;
}

/** Decodes text that `isStrictBase64` accepted. */
export function decodeBase64(text: string): Buffer {
  return Buffer.from(text, 'base64');
}
