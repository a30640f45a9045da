/**
 * Cutting redacted text without splitting a mask, a surrogate pair or a piece of text that may be a
 * secret: the clips that add `…`, what counts as a boundary, and the scans `redact` uses near a cut.
 */

/** What a masked secret is replaced by. */
export const MASK = '[redacted]';
/** What marks a cut. */
export const ELLIPSIS = '…';

/** `text` cut to `limit - 1` characters (no mask or surrogate pair split), then `…`. */
export function clipStart(text: string, limit: number): string {
  if (limit === 0) return '';
  let cut = Math.min(text.length, limit - 1);
  if (cut > 0 && isLowSurrogate(text.charCodeAt(cut))) cut--;
  // A mask starting fewer than MASK.length characters before the cut would be split: cut before it.
  for (let back = 1; back < MASK.length && back <= cut; back++) {
    if (text.startsWith(MASK, cut - back)) {
      cut -= back;
      break;
    }
  }
  return `${text.slice(0, cut)}${ELLIPSIS}`;
}

/** `…`, then the last `limit - 1` characters of `text` (no mask or surrogate pair split). */
export function clipEnd(text: string, limit: number): string {
  if (limit === 0) return '';
  let start = Math.max(0, text.length - (limit - 1));
  if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
  // A mask starting fewer than MASK.length characters before the start would be split: start after it.
  for (let back = 1; back < MASK.length && back <= start; back++) {
    if (text.startsWith(MASK, start - back)) {
      start = start - back + MASK.length;
      break;
    }
  }
  return `${ELLIPSIS}${text.slice(start)}`;
}

/**
 * Where a piece of text crossing a cut ends: white space and the punctuation that ends a token, a key, an
 * opaque string or a JWT. (A key=value value may go on past it, but that rule masks any start of a value.)
 */
export function isBoundary(code: number): boolean {
  if (Number.isNaN(code)) return true;
  if (code <= 0x20 || code === 0x7f || code === 0x85 || code === 0xa0 || code === 0x2028 || code === 0x2029) {
    return true;
  }
  return BOUNDARY_PUNCTUATION.includes(String.fromCharCode(code));
}
const BOUNDARY_PUNCTUATION = '"\'`,;&<>()[]{}|';

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Index of the first `\n` or `\r` in `text[from, to)`, or -1. */
export function indexOfLineBreak(text: string, from: number, to: number): number {
  const end = Math.min(to, text.length);
  for (let i = from; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x0d) return i;
  }
  return -1;
}

/** Index of the last `\n` or `\r` in `text[from, to)`, or -1. */
export function lastIndexOfLineBreak(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x0d) return i;
  }
  return -1;
}

/** Index of the first unescaped `"` at or after `from`, or -1. */
export function indexOfClosingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5c) i++;
    else if (code === 0x22) return i;
  }
  return -1;
}
