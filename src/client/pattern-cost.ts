/**
 * How long a server's `pattern` may take, read from its source before it is ever run. A JSON Schema
 * `pattern` is a JavaScript `RegExp` (`u` mode, as the validator compiles it) run by a backtracking
 * engine: `^(a+)+$` takes minutes on 30 characters, `^(a|a)(a|a)…$` doubles its time with each group,
 * `a*a*b` is cubic, and even `a{1000}b` costs a thousand steps at each of the string's positions. A
 * pattern is server data, so it is parsed, and run only where a bound on its backtracking is small:
 * - never when the bound is exponential: a backreference, or a repeated group that holds a choice (a
 *   variable quantifier or a `|`: `(a+)+`, `(a|ab)*`), or longer than {@link MAX_PATTERN} characters;
 * - otherwise on strings up to the longest length at which the bound stays under {@link MAX_STEPS}. The
 *   bound is an exhaustive search: a sequence tries each later part once per way of matching the earlier
 *   ones, a `|` tries each branch, a quantifier each count it can reach (`{n,m}` at most m − n + 1, `*`
 *   and `+` one per character), an unanchored pattern once per start position. Every quantifier form is
 *   read (`{n}`, `{n,}`, `{n,m}` with any number of digits or leading zeros, lazy `?`), since in `u` mode a
 *   `{` outside a class and not escaped is always one.
 * What is not run is left to the server, which checks its own schema.
 */

/** Longest pattern that is ever run. */
export const MAX_PATTERN = 256;

/**
 * Most backtracking steps one run may take by the bound: 2^26, 20–50 ms at the worst shapes measured
 * (`a*b` on 4,096 characters, `a*a*b` on 256).
 */
const MAX_STEPS = 2 ** 26;

/** The string lengths a pattern may be allowed to run on, longest first (`arguments.ts` classes its inputs so). */
const LENGTHS = [Number.POSITIVE_INFINITY, 1 << 20, 4096, 256, 64];

/** A bounded counted loop's round (`{n}`, `{n,m}`), ~10 ns in V8, against ~1 ns for a `*` (or `{n,}`) step. */
const COUNTED_STEP = 32;

/** A parsed pattern: only what its cost depends on. */
type Node =
  | { kind: 'atom'; width: 0 | 1; start?: true }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; branches: Node[] }
  | { kind: 'look'; body: Node }
  | { kind: 'rep'; body: Node; min: number; max: number; counted: boolean };

/** Parsed pattern (or `undefined` when it is never run), by source; bounded by what one schema holds. */
export type ParsedPattern = Node | undefined;

/**
 * The longest string `pattern` may be run on: `0` when it is never run (exponential, or too costly at 64
 * characters), `Infinity` when its bound does not grow with the string. A pattern that is not a valid
 * `u`-mode expression gets `Infinity`, so the validator reports it as it reports any unusable schema.
 */
export function patternInputLimit(pattern: string): number {
  if (pattern.length > MAX_PATTERN) return 0;
  if (!isPattern(pattern)) return Number.POSITIVE_INFINITY;
  const parsed = parsePattern(pattern);
  return LENGTHS.find((length) => patternSteps(parsed, length) <= MAX_STEPS) ?? 0;
}

/** True when `pattern` compiles in `u` mode, as the validator compiles it. */
export function isPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** `pattern` parsed for {@link patternSteps}; `undefined` when it is never run (or does not compile). */
export function parsePattern(pattern: string): ParsedPattern {
  if (pattern.length > MAX_PATTERN || !isPattern(pattern)) return undefined;
  try {
    const parser = new Parser(pattern);
    const node = parser.alternation();
    return parser.done() ? node : undefined;
  } catch (error) {
    if (error === NEVER) return undefined;
    throw error;
  }
}

/** The bound on backtracking steps of one run on a string of `length` characters (`Infinity` when unbounded). */
export function patternSteps(parsed: ParsedPattern, length: number): number {
  if (parsed === undefined) return Number.POSITIVE_INFINITY;
  const cost = costOf(parsed, length);
  if (cost === undefined) return Number.POSITIVE_INFINITY;
  return anchored(parsed) ? cost.steps : mul(length + 1, cost.steps);
}

const NEVER = Symbol('never run');

/** A recursive-descent reader of `u`-mode syntax (the pattern compiled before it is read). */
class Parser {
  private i = 0;
  private readonly source: string;
  constructor(source: string) {
    this.source = source;
  }

  done(): boolean {
    return this.i >= this.source.length;
  }

  alternation(): Node {
    const branches = [this.sequence()];
    while (this.source[this.i] === '|') {
      this.i += 1;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? (branches[0] as Node) : { kind: 'alt', branches };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.source.length && this.source[this.i] !== '|' && this.source[this.i] !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { kind: 'seq', items };
  }

  private atom(): Node {
    const s = this.source;
    const char = s[this.i] ?? '';
    if (char === '(') return this.group();
    if (char === '[') {
      this.i = endOfClass(s, this.i + 1);
      return { kind: 'atom', width: 1 };
    }
    if (char === '\\') return this.escape();
    this.i += 1;
    if (char === '^') return { kind: 'atom', width: 0, start: true };
    if (char === '$') return { kind: 'atom', width: 0 };
    return { kind: 'atom', width: 1 };
  }

  private group(): Node {
    const s = this.source;
    let look = false;
    if (s[this.i + 1] !== '?') this.i += 1;
    else if (s[this.i + 2] === '=' || s[this.i + 2] === '!') {
      look = true;
      this.i += 3;
    } else if (s[this.i + 2] === '<' && (s[this.i + 3] === '=' || s[this.i + 3] === '!')) {
      look = true;
      this.i += 4;
    } else if (s[this.i + 2] === '<') this.i = past(s, '>', this.i);
    else this.i = past(s, ':', this.i); // `(?:`, and modifiers such as `(?i:`
    const body = this.alternation();
    this.i += 1; // `)`
    return look ? { kind: 'look', body } : body;
  }

  private escape(): Node {
    const s = this.source;
    const next = s[this.i + 1] ?? '';
    // A backreference makes matching NP-hard in general: never run (`\1`, `\k<name>`).
    if (/[1-9]/.test(next) || next === 'k') throw NEVER;
    this.i += 2;
    if (next === 'b' || next === 'B') return { kind: 'atom', width: 0 };
    if ((next === 'p' || next === 'P' || next === 'u') && s[this.i] === '{') this.i = past(s, '}', this.i);
    else if (next === 'u') this.i += 4;
    else if (next === 'x') this.i += 2;
    else if (next === 'c') this.i += 1;
    return { kind: 'atom', width: 1 };
  }

  /** `atom` with the quantifier that follows it, if any: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy. */
  private quantified(atom: Node): Node {
    const s = this.source;
    const char = s[this.i];
    let min: number;
    let max: number;
    let counted = false;
    if (char === '*' || char === '+' || char === '?') {
      min = char === '+' ? 1 : 0;
      max = char === '?' ? 1 : Number.POSITIVE_INFINITY;
      this.i += 1;
    } else if (char === '{') {
      // In `u` mode a `{` here can only open a quantifier (else the pattern would not have compiled).
      const braces = /\{(\d+)(,(\d*))?\}/y;
      braces.lastIndex = this.i;
      const match = braces.exec(s);
      if (match === null) throw NEVER; // not reached for a compiled pattern; refuse rather than guess
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
      counted = true;
      this.i = braces.lastIndex;
    } else return atom;
    if (s[this.i] === '?') this.i += 1; // lazy: the same search, in another order
    return { kind: 'rep', body: atom, min, max, counted };
  }
}

/** Past the next `char` from `i`; a compiled pattern always has it, and without it nothing is guessed. */
function past(pattern: string, char: string, i: number): number {
  const at = pattern.indexOf(char, i);
  if (at === -1) throw NEVER;
  return at + 1;
}

/** Past the `]` that closes a class opened before `i` (`u` mode has no nested classes). */
function endOfClass(pattern: string, i: number): number {
  while (i < pattern.length) {
    if (pattern[i] === '\\') i += 2;
    else if (pattern[i] === ']') return i + 1;
    else i += 1;
  }
  return i;
}

/** Ways to match, steps of an exhaustive search, and the fewest characters matched. */
interface Cost {
  paths: number;
  steps: number;
  width: number;
}

/** The cost of `node` on a string of `length` characters, or `undefined` when exponential. */
function costOf(node: Node, length: number): Cost | undefined {
  switch (node.kind) {
    case 'atom':
      return { paths: 1, steps: 1, width: node.width };
    case 'look': {
      // A lookaround is atomic in JavaScript: one way out, after searching its body.
      const body = costOf(node.body, length);
      return body && { paths: 1, steps: body.steps, width: 0 };
    }
    case 'seq': {
      const total: Cost = { paths: 1, steps: 1, width: 0 };
      for (const item of node.items) {
        const cost = costOf(item, length);
        if (cost === undefined) return undefined;
        total.steps += mul(total.paths, cost.steps);
        total.paths = mul(total.paths, cost.paths);
        total.width += cost.width;
      }
      return total;
    }
    case 'alt': {
      const total: Cost = { paths: 0, steps: 0, width: Number.POSITIVE_INFINITY };
      for (const branch of node.branches) {
        const cost = costOf(branch, length);
        if (cost === undefined) return undefined;
        total.paths += cost.paths;
        total.steps += cost.steps;
        total.width = Math.min(total.width, cost.width);
      }
      return total;
    }
    case 'rep': {
      const body = costOf(node.body, length);
      if (body === undefined) return undefined;
      // A repeated body with a choice inside: the ways to split the string multiply (`(a+)+`, `(a|b)*`).
      if (body.paths > 1 && node.max > 1) return undefined;
      // Each round takes at least `width` characters; an empty round is counted as one step per character.
      const reach = body.width >= 1 ? Math.floor(length / body.width) : length + 1;
      // Rounds that can complete, and the ones tried: one more, which fails, when the string runs out first.
      const rounds = Math.min(node.max, reach);
      const tried = Math.min(node.max, reach + 1);
      const paths = rounds >= node.min ? rounds - node.min + 1 : 1;
      const perRound =
        node.counted && node.max > 1 && node.max < Number.POSITIVE_INFINITY
          ? mul(body.steps, COUNTED_STEP)
          : body.steps;
      return { paths, steps: mul(tried, perRound) + paths, width: mul(node.min, body.width) };
    }
  }
}

/** True when every way through `node` starts with `^` (no `m` flag: one start position only). */
function anchored(node: Node): boolean {
  if (node.kind === 'atom') return node.start === true;
  if (node.kind === 'alt') return node.branches.every(anchored);
  if (node.kind === 'seq') {
    const first = node.items[0];
    return first !== undefined && anchored(first);
  }
  return false;
}

/** `a × b` where `0 × ∞` is 0 (nothing repeated no times costs nothing). */
function mul(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : a * b;
}
