/**
 * Masks secrets in free text before it reaches an error message, a debug log or a CloseReport:
 * bearer/basic credentials, Authorization headers, key=value and JSON secrets, URL userinfo and long
 * opaque strings that look like keys or JWTs. Over-masking is accepted; leaking is not.
 */

const MASK = '[redacted]';

/** Secret-bearing key names, matched case-insensitively as the end of a key (`access_token`, `X-Api-Key`). */
const SECRET_KEY =
  '(?:[A-Za-z0-9_.-]*(?:token|secret|password|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|session|cookie|credential|auth))';

function maskOpaque(candidate: string): string {
  const opaque = (s: string): boolean => /\d/.test(s) && /[A-Za-z]/.test(s);
  if (!opaque(candidate)) return candidate;
  if (candidate.includes('/') && !candidate.split('/').some((seg) => seg.length >= 24 && opaque(seg))) {
    return candidate;
  }
  return MASK;
}

const RULES: ReadonlyArray<readonly [RegExp, string | ((match: string) => string)]> = [
  // Authorization / Proxy-Authorization header values: mask everything to the end of the line.
  [/((?:proxy-)?authorization\s*[:=]\s*)[^\r\n]+/gi, `$1${MASK}`],
  // Bearer / Basic credentials anywhere in text (8+ characters, so "basic usage" stays readable).
  [/\b(bearer|basic)(\s+)[A-Za-z0-9\-._~+/]{8,}=*/gi, `$1$2${MASK}`],
  // URL userinfo: scheme://user:pass@host -> scheme://[redacted]@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*:[^\s/@]*@/gi, `$1${MASK}@`],
  // JSON "key": "value" (value string up to the next unescaped quote).
  [new RegExp(`("${SECRET_KEY}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${MASK}"`],
  // key=value / key: value in query strings, env dumps, CLI flags (--token=...), also with the key or the
  // value quoted, as Python's dict repr (`'api_key': 'x'`) and YAML (`token: "x"`) print them.
  [new RegExp(`(\\b${SECRET_KEY}['"]?\\s*[=:]\\s*['"]?)(?!\\[redacted\\])[^\\s&"',;]+`, 'gi'), `$1${MASK}`],
  // OAuth `code=` only with `=` (so "exit code: 1" stays readable).
  [/(\bcode=)[^\s&"',;]+/gi, `$1${MASK}`],
  // JWTs: three base64url segments starting with eyJ.
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, MASK],
  // Long opaque strings (keys, tokens, hashes) of 32+ characters, which must mix letters and digits.
  // Paths (segments joined by `/`) are kept unless one segment is itself long and opaque.
  [/(?<![A-Za-z0-9_\-+/=.])[A-Za-z0-9_\-+/=.]{32,}/g, maskOpaque],
];

/** Returns `text` with credentials and secret-looking values replaced by `[redacted]`. */
export function redact(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) {
    if (typeof replacement === 'string') out = out.replace(pattern, replacement);
    else out = out.replace(pattern, replacement);
  }
  return out;
}

/**
 * The last `maxChars` characters of `text` (whole text when short), starting at a line boundary when one is
 * near so the first line is not a fragment, prefixed with `…` when something was cut.
 */
export function boundedTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let tail = text.slice(text.length - maxChars);
  const firstBreak = tail.indexOf('\n');
  if (firstBreak >= 0 && firstBreak < Math.min(200, tail.length - 1)) tail = tail.slice(firstBreak + 1);
  return `…${tail}`;
}
