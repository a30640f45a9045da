/**
 * The scalars of the SKILL.md frontmatter reader (frontmatter.ts): quoted scalars (closed on their line),
 * one-line flow sequences of scalars, comments, and YAML 1.2 core-schema typing (null, booleans, numbers,
 * else a string). Pure. Also the JSON comparison of a frontmatter with a skill entry's.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Why a frontmatter cannot be read; `line` counts from the file's first line. */
export class FrontmatterError extends Error {}

export interface Line {
  no: number;
  indent: number;
  text: string; // without the indentation
}

export const fail = (message: string, line?: Line): never => {
  throw new FrontmatterError(line === undefined ? message : `line ${line.no}: ${message}`);
};

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_WIDTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** A quoted scalar starting at text[0], closed on the same line; `end` is just past the closing quote. */
export function quoted(text: string, line: Line): { value: string; end: number } {
  const quote = text[0];
  let value = '';
  for (let at = 1; at < text.length; ) {
    const char = text[at] as string;
    if (char === quote) {
      if (quote === "'" && text[at + 1] === "'") {
        value += "'";
        at += 2;
        continue;
      }
      return { value, end: at + 1 };
    }
    if (quote === '"' && char === '\\') {
      const code = text[at + 1] ?? '';
      const width = HEX_WIDTH[code];
      if (width !== undefined) {
        const hex = text.slice(at + 2, at + 2 + width);
        const point = /^[\dA-Fa-f]+$/.test(hex) && hex.length === width ? Number.parseInt(hex, 16) : -1;
        if (point < 0 || point > 0x10ffff) fail(`a bad escape "\\${code}${hex}"`, line);
        value += String.fromCodePoint(point);
        at += 2 + width;
        continue;
      }
      const simple = ESCAPES[code];
      if (simple === undefined) fail(`an unknown escape "\\${code}"`, line);
      value += simple;
      at += 2;
      continue;
    }
    value += char;
    at++;
  }
  return fail('a quoted value must close on its line', line);
}

export function onlyComment(after: string, line: Line): void {
  if (after.trim() !== '' && !/^[\t ]+#/.test(after)) fail('unexpected text after a value', line);
}

export function stripComment(text: string): string {
  const at = /[\t ]#/.exec(text);
  return (at === null ? text : text.slice(0, at.index)).trim();
}

/** `[a, "b", 3]` on one line: scalars only. */
export function flowSequence(text: string, line: Line): Json[] {
  const items: Json[] = [];
  let at = 1;
  const skip = () => {
    while (text[at] === ' ' || text[at] === '\t') at++;
  };
  skip();
  if (text[at] === ']') {
    onlyComment(text.slice(at + 1), line);
    return items;
  }
  for (;;) {
    skip();
    const char = text[at];
    if (char === '"' || char === "'") {
      const { value, end } = quoted(text.slice(at), line);
      items.push(value);
      at += end;
    } else {
      const match = /^[^,[\]{}#]+/.exec(text.slice(at));
      const raw = match?.[0].trim() ?? '';
      if (raw === '' || '&*!'.includes(raw[0] as string) || /:(?:[\t ]|$)/.test(raw))
        fail('a flow sequence this reader does not support', line);
      items.push(typed(raw, line));
      at += match?.[0].length ?? 0;
    }
    skip();
    if (text[at] === ',') {
      at++;
      continue;
    }
    if (text[at] === ']') break;
    fail('a flow sequence must close on its line', line);
  }
  onlyComment(text.slice(at + 1), line);
  return items;
}

/** YAML 1.2 core schema: null, booleans, numbers; anything else a string. */
export function typed(text: string, line: Line): Json {
  if (text === '' || /^(?:~|null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?\d+$/.test(text) || /^[-+]?(?:\.\d+|\d+(?:\.\d*)?)(?:[Ee][-+]?\d+)?$/.test(text)) {
    const number = Number(text);
    if (!Number.isFinite(number)) fail(`"${text}" cannot be JSON; quote it`, line);
    return number;
  }
  if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
  if (/^0x[\dA-Fa-f]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
  if (/^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(text))
    fail(`"${text}" cannot be JSON; quote it`, line);
  return text;
}

/** Equal as JSON: same keys (in any order), same values; arrays in order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index]));
  }
  const left = Object.keys(a);
  const right = Object.keys(b);
  if (left.length !== right.length) return false;
  const other = b as Record<string, unknown>;
  return left.every(
    (key) => Object.hasOwn(other, key) && sameJson((a as Record<string, unknown>)[key], other[key]),
  );
}
