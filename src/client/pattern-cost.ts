/**
 * How long a server's `pattern` may take, read from its source before it is ever run. A JSON Schema
 * `pattern` is a JavaScript `RegExp` run by a backtracking engine: `^(a+)+$` takes minutes on 30
 * characters, and even `a*a*b` is cubic in the input's length. A pattern is server data, so it is run
 * only where its cost is bounded:
 * - never when it can take exponential time: a backreference, or a repeated group that holds a
 *   quantifier or an alternation (`(a+)+`, `(a|ab)*`), or longer than {@link MAX_PATTERN} characters;
 * - otherwise on strings up to a length that depends on how many variable quantifiers it has (`?`,
 *   `*`, `+`, `{n,}`, `{n,m}`): with k of them, a backtracking match from one start costs up to n^k
 *   steps, times n starts unless the pattern is anchored with `^`. The limits keep that near 10^7
 *   steps (tens of milliseconds).
 * What is not run is left to the server, which checks its own schema.
 */

/** Longest pattern that is ever run. */
export const MAX_PATTERN = 256;

/** Longest string a pattern may run on, by the number of variable quantifiers in an anchored pattern. */
const ANCHORED_LIMITS = [Number.POSITIVE_INFINITY, 1 << 20, 4096, 256, 64];

/**
 * The longest string `pattern` may be run on: `0` when it is never run (exponential, or too costly),
 * `Infinity` when it has no variable quantifier. A pattern that is not a valid `u`-mode expression gets
 * `Infinity`, so the validator reports it as it reports any unusable schema.
 */
export function patternInputLimit(pattern: string): number {
  if (pattern.length > MAX_PATTERN) return 0;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  const shape = scan(pattern);
  if (shape === undefined) return 0;
  const degree = shape.quantifiers + (shape.anchored ? 0 : 1);
  return ANCHORED_LIMITS[degree] ?? 0;
}

interface Group {
  /** A variable quantifier somewhere inside. */
  quantified: boolean;
  /** A `|` somewhere inside. */
  alternation: boolean;
}

/** The variable quantifiers of a pattern and whether it is anchored, or undefined when it can be exponential. */
function scan(pattern: string): { quantifiers: number; anchored: boolean } | undefined {
  const top: Group = { quantified: false, alternation: false };
  const stack: Group[] = [top];
  let quantifiers = 0;
  /** The group that just closed, when the previous atom is a group. */
  let lastGroup: Group | undefined;
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] ?? '';
    const current = stack[stack.length - 1] ?? top;
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) return undefined; // a backreference
      i += next === 'p' || next === 'P' || next === 'u' ? skipBraces(pattern, i + 2) - i : 2;
      lastGroup = undefined;
      continue;
    }
    if (char === '[') {
      i = endOfClass(pattern, i + 1);
      lastGroup = undefined;
      continue;
    }
    if (char === '(') {
      stack.push({ quantified: false, alternation: false });
      i += pattern[i + 1] === '?' ? groupPrefix(pattern, i + 1) : 1;
      lastGroup = undefined;
      continue;
    }
    if (char === ')') {
      const closed = stack.length > 1 ? stack.pop() : undefined;
      if (closed !== undefined) {
        const parent = stack[stack.length - 1] ?? top;
        parent.quantified ||= closed.quantified;
        parent.alternation ||= closed.alternation;
      }
      lastGroup = closed;
      i += 1;
      continue;
    }
    if (char === '|') {
      current.alternation = true;
      lastGroup = undefined;
      i += 1;
      continue;
    }
    const quantifier = quantifierAt(pattern, i);
    if (quantifier !== undefined) {
      if (quantifier.max > 1 && lastGroup !== undefined && (lastGroup.quantified || lastGroup.alternation))
        return undefined; // a repeated group with a choice inside: exponential
      if (quantifier.variable) {
        quantifiers += 1;
        current.quantified = true;
      }
      i = quantifier.end;
      if (pattern[i] === '?') i += 1; // lazy
      lastGroup = undefined;
      continue;
    }
    lastGroup = undefined;
    i += 1;
  }
  return { quantifiers, anchored: pattern.startsWith('^') && !top.alternation };
}

/** The quantifier at `i`: its maximum, whether its count varies, and where it ends. */
function quantifierAt(
  pattern: string,
  i: number,
): { max: number; variable: boolean; end: number } | undefined {
  const char = pattern[i];
  if (char === '?') return { max: 1, variable: true, end: i + 1 };
  if (char === '*' || char === '+') return { max: Number.POSITIVE_INFINITY, variable: true, end: i + 1 };
  if (char !== '{') return undefined;
  const braces = /^\{(\d{1,9})(,(\d{0,9}))?\}/.exec(pattern.slice(i, i + 22));
  if (braces === null) return undefined;
  const min = Number(braces[1]);
  const max = braces[2] === undefined ? min : braces[3] === '' ? Number.POSITIVE_INFINITY : Number(braces[3]);
  return { max, variable: max !== min, end: i + braces[0].length };
}

/** Past `{…}` at `i` (for `\p{…}`, `\u{…}`), or `i` when there is none. */
function skipBraces(pattern: string, i: number): number {
  if (pattern[i] !== '{') return i;
  const close = pattern.indexOf('}', i);
  return close === -1 ? pattern.length : close + 1;
}

/** Past the `]` that closes a class opened before `i`. */
function endOfClass(pattern: string, i: number): number {
  while (i < pattern.length) {
    if (pattern[i] === '\\') i += 2;
    else if (pattern[i] === ']') return i + 1;
    else i += 1;
  }
  return i;
}

/** The length of a group's `?:`, `?=`, `?!`, `?<=`, `?<!` or `?<name>` prefix, with its `(`. */
function groupPrefix(pattern: string, question: number): number {
  const next = pattern[question + 1];
  if (next === ':' || next === '=' || next === '!') return 3;
  if (next === '<') {
    const after = pattern[question + 2];
    if (after === '=' || after === '!') return 4;
    const close = pattern.indexOf('>', question);
    return close === -1 ? pattern.length : close - question + 2;
  }
  return 2;
}
