/**
 * RFC 9110 §5.6.2 `token` (`1*tchar`) and field-value checks shared by the header helpers.
 * Pure; no I/O.
 */

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True when `name` is an RFC 9110 token: ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``, at least one char. */
export function isToken(name: string): boolean {
  return TCHAR.test(name);
}

/** True when `value` is a header value we are willing to send raw: printable ASCII, space and TAB only. */
export function isPlainFieldValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code !== 0x09 && (code < 0x20 || code > 0x7e)) return false;
  }
  return true;
}
