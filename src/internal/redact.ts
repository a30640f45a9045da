/**
 * Masks secrets in free text before it reaches an error message, a debug log or a CloseReport:
 * bearer/basic credentials, Authorization headers, key=value and JSON secrets, URL userinfo and long
 * opaque strings that look like keys or JWTs. Over-masking is accepted; leaking is not.
 *
 * Server text reaches it (JSON-RPC error messages, progress messages, log data, stderr, stdout previews),
 * so it runs in time linear in the text: no rule can backtrack super-linearly. A regex rule's match starts
 * only at a literal (`authorization`, `bearer`, `://`, `=`, `"`, `code=`) or once per run of the
 * characters it spans (a lookbehind says so); what it checks before that point is read backwards by a
 * lookbehind over the run ending there; no two adjacent quantifiers take the same characters. A failed
 * attempt therefore never rescans the run it failed on from the next position. Long opaque strings are
 * found by a scanner. test/internal/redact-linear.test.ts feeds 1 MB of every rule's prefix. Callers that
 * keep or show a bounded part pass `maxChars`: only that much, plus a margin, is looked at.
 *
 * Besides guessing by shape, it knows: every value a caller handed in for an open connection (see
 * known-secrets.ts) is masked by exact match, with its encodings, in one pass before the rules run.
 */

import { knownSecrets } from './known-secrets.js';
import {
  clipEnd,
  clipStart,
  ELLIPSIS,
  indexOfClosingQuote,
  indexOfLineBreak,
  isBoundary,
  isHighSurrogate,
  isLowSurrogate,
  lastIndexOfLineBreak,
  MASK,
} from './text-cuts.js';

/** Secret-bearing key names, matched case-insensitively as the end of a key (`access_token`, `X-Api-Key`). */
const SECRET_NAME =
  '(?:token|secret|password|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|session|cookie|credential|auth)';
/** The characters of a key; a secret key is a run of them ending with a `SECRET_NAME`. */
const KEY_CHAR = '[A-Za-z0-9_.-]';

/** Masks a long run of key characters that mixes letters and digits, unless it is a path of short parts. */
function maskOpaque(candidate: string): string {
  if (!isOpaque(candidate, 0, candidate.length)) return candidate;
  if (!candidate.includes('/')) return MASK;
  // Paths (segments joined by `/`) are kept unless one segment is itself long and opaque.
  for (let start = 0; start <= candidate.length; ) {
    const slash = candidate.indexOf('/', start);
    const end = slash < 0 ? candidate.length : slash;
    if (end - start >= 24 && isOpaque(candidate, start, end)) return MASK;
    start = end + 1;
  }
  return candidate;
}

/** True when `text[from, to)` has both an ASCII letter and a digit. */
function isOpaque(text: string, from: number, to: number): boolean {
  let letter = false;
  let digit = false;
  for (let i = from; i < to && !(letter && digit); i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) digit = true;
    else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) letter = true;
  }
  return letter && digit;
}

/**
 * A rule: the pattern, its replacement, and a literal every match contains (the rule is skipped, for
 * speed, on text without it).
 */
type Rule = readonly [RegExp, string, string?];

const RULES: readonly Rule[] = [
  // Authorization / Proxy-Authorization header values: mask everything to the end of the line. Starts at
  // the literal; `\s*[:=]\s*` then `[^\r\n]+` fails at most once per occurrence of the literal.
  [/((?:proxy-)?authorization\s*[:=]\s*)[^\r\n]+/gi, `$1${MASK}`],
  // Bearer / Basic credentials anywhere in text (8+ characters before any `=`, so "basic usage" stays
  // readable; `=` padding and whatever follows it, up to a key=value delimiter, go with them: it may be the
  // value of a key the credential swallowed, as in `Bearer --password=x`). Starts at the literal after a
  // word boundary; `\s+`, the credential and the `=` part take disjoint characters.
  [/\b(bearer|basic)(\s+)[A-Za-z0-9\-._~+/]{8,}(?:=[^\s&"',;]*)?/gi, `$1$2${MASK}`],
  // URL userinfo: scheme://user:pass@host -> scheme://[redacted]@host. Matched from the `://`; the scheme
  // before it (`\b[a-z][a-z0-9+.-]*`) is checked by a lookbehind that reads only the run ending there, and
  // the userinfo after it stops at the next `/`, so every character is read a bounded number of times.
  [/:\/\/(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*:[^\s/@]*@/gi, `://${MASK}@`, '://'],
  // JSON "key": "value" (value string up to the next unescaped quote, or to the end of the text: a value
  // cut short by a bound is masked too). Matched from the value's opening quote, the key before it read
  // backwards by the lookbehind; the escapes and the other characters of the value are disjoint.
  [
    new RegExp(`"(?<="${KEY_CHAR}*${SECRET_NAME}"\\s*:\\s*")(?:[^"\\\\]|\\\\[\\s\\S])*(?:"|\\\\?$)`, 'gi'),
    `"${MASK}"`,
    '"',
  ],
  // key=value / key: value in query strings, env dumps, CLI flags (--token=...), also with the key or the
  // value quoted, as Python's dict repr (`'api_key': 'x'`) and YAML (`token: "x"`) print them. Matched
  // from the `=` or `:`; the key before it is read backwards by the lookbehind (a run of key characters
  // always has a word boundary at or before its secret name, so `\b<key>` needs no more). The value does
  // not take the `=` or `:` of a key after it (`token= api_key: x` masks `x`); a run of `=` or `:` is
  // read back at most once, at its one failing start.
  [
    new RegExp(
      `([=:])(?<=${SECRET_NAME}['"]?\\s*[=:])(\\s*['"]?)(?!\\[redacted\\])[^\\s&"',;]*[^\\s&"',;=:]`,
      'gi',
    ),
    `$1$2${MASK}`,
  ],
  // OAuth `code=` only with `=` (so "exit code: 1" stays readable).
  [/(\bcode=)[^\s&"',;]+/gi, `$1${MASK}`],
  // JWTs: three base64url segments starting with eyJ. Tried once per run of base64url characters, at its
  // first `\beyJ` (the lookahead is atomic): every later `eyJ` of the run ends its first segment at the
  // same place, so it would fail the same way.
  [
    /(?<![A-Za-z0-9_-])(?=([A-Za-z0-9_-]*?)\beyJ)\1eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
    `$1${MASK}`,
    'eyJ',
  ],
  // Then long opaque strings: `replaceOpaqueRuns`, a scanner.
];

/** The characters of a long opaque string: `[A-Za-z0-9_\-+/=.]`. */
const OPAQUE_CHAR = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.') {
  OPAQUE_CHAR[ch.charCodeAt(0)] = 1;
}
const OPAQUE_MIN = 32;

/**
 * The last rule: long opaque strings (keys, tokens, hashes), runs of 32+ `OPAQUE_CHAR`s, each replaced by
 * `replace(run, offset)` (`maskOpaque`: masked when it mixes letters and digits and is not a path of short
 * parts). A scanner, as the regex it replaces had to be tried at every position: each character is read once.
 */
function replaceOpaqueRuns(text: string, replace: (run: string, offset: number) => string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; ) {
    if (OPAQUE_CHAR[text.charCodeAt(i)] !== 1) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && OPAQUE_CHAR[text.charCodeAt(i)] === 1) i++;
    if (i - start < OPAQUE_MIN) continue;
    const run = text.slice(start, i);
    const value = replace(run, start);
    if (value !== run) {
      out += text.slice(copied, start) + value;
      copied = i;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Characters looked at beyond `maxChars`, so that masks shortening the text still leave it full. */
const CUT_MARGIN = 512;
/**
 * A piece of text (no space or punctuation boundary) longer than this is not taken for one secret cut in
 * two: masking it whole would hide a whole stderr tail that is one long run of a character.
 */
const LONGEST_SECRET = 2048;
/** How far back from an end cut a value running past it is looked for (Authorization line, JSON string). */
const LINE_LOOKBACK = 4096;

/**
 * Returns `text` with credentials and secret-looking values replaced by `[redacted]`.
 *
 * With `maxChars`, the result has at most `maxChars` characters, and the text is cut BEFORE any rule
 * runs: only its first (`keep: 'start'`) or last (`'end'`) `maxChars` characters plus a margin are looked
 * at (and, for `'end'`, some context before them, so that a key just before the cut still masks its value
 * just after it). A piece of text running across a cut is dropped and marked `[redacted]` (a secret cut in
 * two would show its other half unmasked), and the result is cut again to `maxChars` without splitting a
 * mask or a surrogate pair. When anything was cut, the result ends (`'start'`) or begins (`'end'`) with
 * `…`.
 */
export function redact(text: string, maxChars?: number, keep: 'start' | 'end' = 'start'): string {
  const known = knownSecrets();
  if (known === undefined) return redactShaped(text, maxChars, keep);
  if (maxChars === undefined) return redactAll(known.mask(text));
  // The known values are masked first, on the part of the text the rules will look at plus the longest
  // form: a value running across that part's edge is masked whole (or, at a cut, its start is).
  const limit = maxChars > 0 ? Math.floor(maxChars) : 0;
  if (keep === 'start') {
    const end = Math.min(text.length, limit + CUT_MARGIN + known.longest);
    if (end === text.length) return redactShaped(known.mask(text), maxChars, keep);
    const head = known.mask(text.slice(0, end), 0, true);
    const size = Math.min(limit + CUT_MARGIN, head.length);
    const after = size < head.length ? head.charCodeAt(size) : text.charCodeAt(end);
    return clipStart(redactAll(headWindow(head, size, after)), limit);
  }
  let start = text.length - limit - CUT_MARGIN - LINE_LOOKBACK;
  if (start <= 0) return redactShaped(known.mask(text), maxChars, keep);
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  // From `start - longest`, so that a value running across `start` is seen whole; kept from `start` on.
  const from = Math.max(0, start - known.longest);
  const tail = known.mask(text.slice(from), start - from);
  const cut = tail.length - limit - CUT_MARGIN;
  // Usually the kept part and its context lie well after `start`, and the rules read the text before
  // them as it is; only when masks shrank the tail that far is a piece across `start` masked here.
  if (cut > CUT_MARGIN) return clipEnd(redactEnd(tail, cut), limit);
  const led = maskLeadingPiece(tail, text.charCodeAt(start - 1));
  const ledCut = led.length - limit - CUT_MARGIN;
  return clipEnd(ledCut <= 0 ? redactAll(led) : redactEnd(led, ledCut), limit);
}

/** `redact` by the rules alone (no value is registered). */
function redactShaped(text: string, maxChars: number | undefined, keep: 'start' | 'end'): string {
  if (maxChars === undefined) return redactAll(text);
  const limit = maxChars > 0 ? Math.floor(maxChars) : 0;
  if (text.length <= limit + CUT_MARGIN) {
    const out = redactAll(text);
    if (out.length <= limit) return out;
    return keep === 'start' ? clipStart(out, limit) : clipEnd(out, limit);
  }
  return keep === 'start'
    ? clipStart(redactAll(headWindow(text, limit + CUT_MARGIN)), limit)
    : clipEnd(redactEnd(text, text.length - limit - CUT_MARGIN), limit);
}

/**
 * `text`, the end of a longer text whose character before it is `before`: a piece of text running across
 * that cut is replaced by a mask (see `headWindow`).
 */
function maskLeadingPiece(text: string, before: number): string {
  if (isBoundary(before) || text.startsWith(MASK)) return text;
  let next = 0;
  while (next < text.length && next <= LONGEST_SECRET && !isBoundary(text.charCodeAt(next))) next++;
  return next === 0 || next > LONGEST_SECRET ? text : `${MASK}${text.slice(next)}`;
}

function redactAll(text: string): string {
  let out = text;
  for (const [pattern, replacement, needle] of RULES) {
    if (needle === undefined || out.includes(needle)) out = out.replace(pattern, replacement);
  }
  return replaceOpaqueRuns(out, maskOpaque);
}

/**
 * The first `size` characters of `text` (which is longer), ready for the rules: a piece running across the
 * cut is replaced by a mask, and so is a URL authority the cut falls in (its `@` would be cut off).
 * `after`: the character after the cut, when `text` itself was cut there.
 */
function headWindow(text: string, size: number, after = text.charCodeAt(size)): string {
  let end = size;
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  let start = end;
  if (!isBoundary(end < size ? text.charCodeAt(end) : after)) {
    while (start > 0 && end - start <= LONGEST_SECRET && !isBoundary(text.charCodeAt(start - 1))) start--;
    // A piece longer than any secret (a rule of dashes, a flood of one letter) is cut, not masked whole;
    // what is kept of it still goes through the opaque-string rule.
    if (end - start > LONGEST_SECRET) start = end;
  }
  // `https://user:pa|ss@host`: the userinfo is masked only once its `@` is seen.
  const scheme = text.lastIndexOf('://', start);
  if (scheme >= 0 && scheme + 3 <= start && !/[\s/@]/.test(text.slice(scheme + 3, start))) {
    start = scheme + 3;
  }
  return start === end ? text.slice(0, end) : `${text.slice(0, start)}${MASK}`;
}

/**
 * `text` from `cut` on, redacted as if the text before it were there: a value whose key came before the
 * cut is masked. The rules run on the text from `CUT_MARGIN` characters before the cut (a piece running
 * across that earlier cut masked), and only what comes from `cut` on is returned, a mask across `cut`
 * whole. Values that may run on longer than that (an Authorization header to the end of its line, a JSON
 * string) are looked for up to `LINE_LOOKBACK` characters back, and masked to their end.
 */
function redactEnd(text: string, cut: number): string {
  let start = cut;
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  const from = Math.max(0, start - LINE_LOOKBACK);
  const previousBreak = lastIndexOfLineBreak(text, from, start);
  const lineHead = text.slice(
    previousBreak < 0 ? from : previousBreak + 1,
    start + 'proxy-authorization'.length,
  );
  if (/authorization/i.test(lineHead)) {
    const lineEnd = indexOfLineBreak(text, start, text.length);
    return lineEnd < 0 ? MASK : `${MASK}${redactAll(text.slice(lineEnd))}`;
  }
  if (OPEN_JSON_SECRET.test(text.slice(from, start))) {
    const close = indexOfClosingQuote(text, start);
    return close < 0 ? MASK : `${MASK}${redactAll(text.slice(close))}`;
  }
  let contextStart = Math.max(0, start - CUT_MARGIN);
  if (isLowSurrogate(text.charCodeAt(contextStart))) contextStart++;
  let prefix = '';
  if (contextStart > 0 && !isBoundary(text.charCodeAt(contextStart - 1))) {
    let next = contextStart;
    while (next < text.length && next - contextStart <= LONGEST_SECRET && !isBoundary(text.charCodeAt(next)))
      next++;
    // A piece longer than any secret is cut, not masked whole (see headWindow).
    if (next - contextStart <= LONGEST_SECRET) {
      contextStart = next;
      prefix = MASK;
    }
  }
  // A piece running across the earlier cut and past `cut` is all masked.
  const point = prefix.length + Math.max(0, start - contextStart);
  const { text: out, point: kept } = redactTracked(`${prefix}${text.slice(contextStart)}`, point);
  return out.slice(kept);
}

/**
 * `redactAll`, also telling where position `point` of `text` ends up in the result; a point inside a
 * replaced match moves to the start of its replacement.
 */
function redactTracked(text: string, point: number): { text: string; point: number } {
  let out = text;
  let at = point;
  // One pass: each replacement before the point shifts it; one across it moves it to its start.
  let shift = 0;
  let moved = -1;
  const track = (offset: number, length: number, value: string): string => {
    if (offset + length <= at) shift += value.length - length;
    else if (offset < at && moved < 0) moved = offset + shift;
    return value;
  };
  const settle = (): void => {
    at = moved >= 0 ? moved : at + shift;
    shift = 0;
    moved = -1;
  };
  for (const [pattern, replacement, needle] of RULES) {
    if (needle !== undefined && !out.includes(needle)) continue;
    out = out.replace(pattern, (...args: unknown[]) => {
      const match = String(args[0]);
      const value = replacement.replace(/\$(\d)/g, (_, group: string) => String(args[Number(group)] ?? ''));
      return track(Number(args[args.length - 2]), match.length, value);
    });
    settle();
  }
  out = replaceOpaqueRuns(out, (run, offset) => track(offset, run.length, maskOpaque(run)));
  settle();
  return { text: out, point: at };
}

/** A JSON string value of a secret key that is still open at the end of the text. */
const OPEN_JSON_SECRET = new RegExp(
  `"(?<="${KEY_CHAR}*${SECRET_NAME}"\\s*:\\s*")(?:[^"\\\\]|\\\\[\\s\\S])*\\\\?$`,
  'i',
);

/**
 * The last `maxChars` characters of `text` (whole text when short), starting at a line boundary when one is
 * near so the first line is not a fragment, prefixed with `…` when something was cut.
 */
export function boundedTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let tail = text.slice(text.length - maxChars);
  const firstBreak = tail.indexOf('\n');
  if (firstBreak >= 0 && firstBreak < Math.min(200, tail.length - 1)) tail = tail.slice(firstBreak + 1);
  return `${ELLIPSIS}${tail}`;
}
