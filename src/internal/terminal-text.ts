/**
 * The one sanitizer for text a server controls on its way to a terminal (tool names and descriptions,
 * results, error messages, progress messages, stderr tails, serverInfo, instructions, OAuth/HTTP error
 * text). One linear pass, bounded output; what comes out cannot move the cursor, change the title, make
 * a link, reorder a line, or hide text behind a carriage return:
 *
 * - whole escape sequences are removed: CSI (`ESC [` or U+009B, parameters, intermediates, final byte),
 *   OSC (`ESC ]` or U+009D) with its payload up to BEL or ST (`ESC \` or U+009C), DCS, SOS, PM and APC
 *   (`ESC P X ^ _`, U+0090 U+0098 U+009E U+009F) with their payload up to ST, and the other `ESC` forms
 *   (`ESC (B`, `ESC 7`, `ESC c`…). A string sequence that is never terminated swallows the rest of the text,
 *   as a terminal would; CAN, SUB or a new ESC ends one early;
 * - every other C0 control except newline and tab, DEL, and every C1 control U+0080–U+009F;
 * - CRLF becomes LF; a carriage return not followed by LF is removed;
 * - the Unicode Bidi_Control characters: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069,
 *   and the marks U+200E, U+200F and U+061C (a mark can move neutral characters too; terminals that do
 *   bidi still order the text by its letters);
 * - a lone surrogate becomes U+FFFD;
 * - past `max` characters (default 1,000,000), the text is cut with a visible `… [cut: N more characters]`.
 *
 * The output is a fixed point: sanitizing it again changes nothing.
 */

export interface TerminalTextOptions {
  /** Most UTF-16 code units in the result, the cut marker included (default 1,000,000; at least 64). */
  max?: number;
  /** Newlines and tabs become spaces too: for names, progress messages, one-line fields. */
  oneLine?: boolean;
}

const DEFAULT_MAX = 1_000_000;
const MIN_MAX = 64;

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const ST8 = 0x9c;

/** Bidi_Control: the marks, embeddings, overrides and isolates. */
function isBidiControl(c: number): boolean {
  return (
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0x200e ||
    c === 0x200f ||
    c === 0x061c
  );
}

/** The marker that ends a cut text. */
function cutMarker(more: number): string {
  return `… [cut: ${more} more characters]`;
}

/**
 * `text` safe to print on a terminal (see the rules at the top of this file). Linear in the part of
 * `text` it reads; it stops reading once the output is full.
 */
export function terminalText(text: string, options: TerminalTextOptions = {}): string {
  const wanted = options.max !== undefined && Number.isFinite(options.max) ? options.max : DEFAULT_MAX;
  const max = Math.max(MIN_MAX, Math.floor(wanted));
  const oneLine = options.oneLine === true;
  const out: string[] = [];
  let length = 0;
  // Pieces of safe text are pushed whole where possible: a run of plain characters is one slice.
  let runStart = -1;
  const n = text.length;
  let i = 0;
  const flush = (end: number): void => {
    if (runStart >= 0 && end > runStart) {
      out.push(text.slice(runStart, end));
      length += end - runStart;
    }
    runStart = -1;
  };
  const push = (s: string): void => {
    out.push(s);
    length += s.length;
  };
  /** Skips a string sequence's payload from `j`; returns the index after its terminator (or `n`). */
  const skipString = (j: number, bel: boolean): number => {
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === ST8 || (bel && c === BEL)) return j + 1;
      if (c === ESC) return text.charCodeAt(j + 1) === 0x5c ? j + 2 : j; // ST, or a new sequence
      if (c === CAN || c === SUB) return j + 1;
      j++;
    }
    return n;
  };
  /** Skips a CSI's parameters, intermediates and final byte from `j`. */
  const skipCsi = (j: number): number => {
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c >= 0x40 && c <= 0x7e) return j + 1;
      if (c < 0x20 || c > 0x3f) return j; // not part of a CSI: it ends here, and `c` is looked at anew
      j++;
    }
    return n;
  };
  while (i < n && length <= max) {
    const c = text.charCodeAt(i);
    const plain =
      (c >= 0x20 && c < 0x7f) ||
      (c >= 0xa0 && c < 0xd800 && !isBidiControl(c)) ||
      (c > 0xdfff && c <= 0xffff) ||
      (!oneLine && (c === 0x0a || c === 0x09));
    const pair = c >= 0xd800 && c <= 0xdbff && isLow(text.charCodeAt(i + 1));
    if (plain || pair) {
      const width = pair ? 2 : 1;
      if (runStart < 0) runStart = i;
      if (length + (i - runStart) + width > max) break; // full: the rest is cut
      i += width;
      continue;
    }
    flush(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      push('\ufffd');
      i++;
    } else if (c === 0x0a || c === 0x09) {
      push(' '); // oneLine
      i++;
    } else if (c === 0x0d) {
      const crlf = text.charCodeAt(i + 1) === 0x0a;
      if (crlf) push(oneLine ? ' ' : '\n');
      i += crlf ? 2 : 1;
    } else if (c === ESC) {
      const next = text.charCodeAt(i + 1);
      if (next === 0x5b) i = skipCsi(i + 2);
      else if (next === 0x5d) i = skipString(i + 2, true);
      else if (next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) i = skipString(i + 2, false);
      else {
        // ESC, intermediates 0x20–0x2F, then a final 0x30–0x7E (ESC ( B, ESC 7, ESC c); or ESC alone.
        let j = i + 1;
        while (j < n && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
        const f = text.charCodeAt(j);
        i = f >= 0x30 && f <= 0x7e ? j + 1 : j;
      }
    } else if (c === 0x9b) i = skipCsi(i + 1);
    else if (c === 0x9d) i = skipString(i + 1, true);
    else if (c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) i = skipString(i + 1, false);
    else i++; // another C0 or C1 control, DEL, or a bidi control
  }
  flush(i);
  const result = out.join('');
  // Stopped before the end: the next visible character did not fit (or the last one did not).
  return i < n || result.length > max ? cut(result, max, n - i) : result;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** `text` cut to `max` code units with the marker at its end, never splitting a surrogate pair. */
function cut(text: string, max: number, unread: number): string {
  let keep = Math.min(text.length, max - cutMarker(unread + text.length).length);
  const c = text.charCodeAt(keep - 1);
  if (c >= 0xd800 && c <= 0xdbff) keep--;
  const more = unread + (text.length - keep);
  return text.slice(0, keep) + cutMarker(more);
}

/** The CLI's long-standing name for `terminalText(text)`. */
export function safeText(text: string): string {
  return terminalText(text);
}

/**
 * How many terminal columns a code point takes: 0 for combining marks and zero-width characters, 2 for
 * East Asian wide and fullwidth characters and emoji, 1 otherwise. An approximation of wcwidth().
 */
function columnsOf(cp: number): number {
  if (cp < 0x300) return 1;
  if (ZERO_WIDTH.test(String.fromCodePoint(cp))) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd) ||
    WIDE_EMOJI.test(String.fromCodePoint(cp))
  )
    return 2;
  return 1;
}
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200d\u2060\ufeff]$/u;
const WIDE_EMOJI = /^\p{Emoji_Presentation}$/u;

/** The columns `text` (one line, already sanitized) takes on a terminal. */
export function columnsWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += columnsOf(ch.codePointAt(0) ?? 0);
  return width;
}

/** `text` (one line, already sanitized) cut to at most `columns` terminal columns, with `…` when cut. */
export function fitColumns(text: string, columns: number): string {
  if (columns <= 0) return '';
  if (columnsWidth(text) <= columns) return text;
  let width = 0;
  let out = '';
  for (const ch of text) {
    const w = columnsOf(ch.codePointAt(0) ?? 0);
    if (width + w > columns - 1) break;
    out += ch;
    width += w;
  }
  return `${out}…`;
}
