/**
 * A `SKILL.md`'s YAML frontmatter as JSON, to compare field by field with the skill entry's `frontmatter`
 * (SEP-2640: a host MUST parse it and MUST NOT load the skill on any discrepancy). Reads the YAML subset
 * skills use — block mappings and sequences, plain, quoted and block (`|`, `>`) scalars, one-line flow
 * sequences, comments — with YAML 1.2 core-schema typing. Anything outside it (anchors, aliases, tags, flow
 * mappings, complex keys, multi-line quoted scalars, tab indentation) throws: the skill is refused rather
 * than read differently from a full YAML parser. Pure; bounded by the file's size and a nesting depth.
 */

import {
  fail,
  flowSequence,
  type Json,
  type Line,
  onlyComment,
  quoted,
  stripComment,
  typed,
} from './frontmatter-scalars.js';

export { FrontmatterError, sameJson } from './frontmatter-scalars.js';

const MAX_DEPTH = 16;

/** The frontmatter between the opening and closing `---` lines, parsed; throws `FrontmatterError`. */
export function parseFrontmatter(markdown: string): Record<string, Json> {
  let text = markdown.replaceAll('\r\n', '\n');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (!text.startsWith('---\n')) fail('SKILL.md does not begin with a "---" line');
  const close = /^---[\t ]*$/m.exec(text.slice(4));
  if (close === null) fail('the frontmatter has no closing "---" line');
  const raw = text.slice(4, 4 + (close?.index ?? 0)).split('\n');
  if (raw.at(-1) === '') raw.pop();
  const lines = raw.map((line, index): Line => {
    const indent = /^ */.exec(line)?.[0].length ?? 0;
    return { no: index + 2, indent, text: line.slice(indent) };
  });
  const parser = new Parser(lines);
  const first = parser.peek();
  if (first === undefined) return {};
  const value = parser.block(first.indent, 0);
  const extra = parser.peek();
  if (extra !== undefined) fail('unexpected content', extra);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('the frontmatter is not a mapping of keys to values');
  return value as Record<string, Json>;
}

const isItem = (text: string): boolean => /^-(?:[\t ]|$)/.test(text);
const blankOrComment = (line: Line): boolean => line.text === '' || line.text.startsWith('#');

class Parser {
  #at = 0;
  readonly lines: Line[];

  constructor(lines: Line[]) {
    this.lines = lines;
  }

  /** The next line with content (blank and comment lines skipped). */
  peek(): Line | undefined {
    while (this.#at < this.lines.length && blankOrComment(this.lines[this.#at] as Line)) this.#at++;
    const line = this.lines[this.#at];
    if (line?.text.startsWith('\t')) fail('tabs cannot indent', line);
    return line;
  }

  /** A mapping or a sequence whose lines start at `indent`. */
  block(indent: number, depth: number): Json {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`);
    const first = this.peek() as Line;
    return isItem(first.text) ? this.sequence(indent, depth) : this.mapping(indent, depth);
  }

  mapping(indent: number, depth: number): Json {
    const map: Record<string, Json> = {};
    for (let line = this.peek(); line !== undefined && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) fail('unexpected indentation', line);
      if (isItem(line.text)) break;
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(map, key)) fail(`duplicate key "${key}"`, line);
      this.#at++;
      map[key] = this.value(rest, line, indent, depth, true);
    }
    return map;
  }

  sequence(indent: number, depth: number): Json {
    const items: Json[] = [];
    for (let line = this.peek(); line !== undefined && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) fail('unexpected indentation', line);
      if (!isItem(line.text)) break;
      const rest = line.text.slice(1).replace(/^ +/, '');
      if (rest.startsWith('\t')) fail('tabs cannot indent', line);
      const column = line.indent + (line.text.length - rest.length);
      if (rest !== '' && !rest.startsWith('#') && (isItem(rest) || keyOf(rest) !== undefined)) {
        // A compact nested collection (`- key: value`): read it as if it started on its own line.
        this.lines[this.#at] = { ...line, indent: column, text: rest };
        items.push(this.block(column, depth + 1));
        continue;
      }
      this.#at++;
      items.push(this.value(rest, line, indent, depth, false));
    }
    return items;
  }

  /** The value after `key:` or `- ` on `line`, whose collection is at `indent`. */
  value(rest: string, line: Line, indent: number, depth: number, compact: boolean): Json {
    if (rest === '' || rest.startsWith('#')) {
      const next = this.peek();
      if (next !== undefined && next.indent > indent) return this.block(next.indent, depth + 1);
      if (compact && next !== undefined && next.indent === indent && isItem(next.text))
        return this.sequence(indent, depth + 1);
      return null;
    }
    const first = rest[0] as string;
    if (first === '|' || first === '>') return this.blockScalar(rest, line, indent);
    if (first === '"' || first === "'") {
      const { value, end } = quoted(rest, line);
      onlyComment(rest.slice(end), line);
      return value;
    }
    if (first === '[') return flowSequence(rest, line);
    if ('&*!{%@`?'.includes(first)) fail(`"${first}" starts YAML this reader does not support`, line);
    return this.plain(rest, line, indent);
  }

  plain(first: string, line: Line, indent: number): Json {
    let text = stripComment(first);
    const commented = text !== first.trimEnd();
    let blanks = 0;
    while (this.#at < this.lines.length) {
      const next = this.lines[this.#at] as Line;
      if (next.text === '') {
        blanks++;
        this.#at++;
        continue;
      }
      if (next.indent <= indent || next.text.startsWith('#')) break;
      if (commented) fail('a comment ends a plain value; quote a value that goes on', next);
      text += blanks > 0 ? '\n'.repeat(blanks) : ' ';
      text += stripComment(next.text);
      blanks = 0;
      this.#at++;
    }
    if (/:(?:[\t ]|$)/.test(text)) fail('a plain value cannot hold ": "; quote it', line);
    return typed(text, line);
  }

  blockScalar(header: string, line: Line, indent: number): string {
    const match = /^([|>])([+-]?)(?:[\t ]+#.*)?[\t ]*$/.exec(header);
    if (match === null) fail('a block scalar header this reader does not support', line);
    const [, style, chomp] = match as RegExpExecArray;
    const contents: string[] = [];
    let column = -1;
    while (this.#at < this.lines.length) {
      const next = this.lines[this.#at] as Line;
      if (next.text === '') contents.push('');
      else if (next.indent <= indent) break;
      else {
        if (column === -1) column = next.indent;
        if (next.indent < column) fail('a block scalar line is indented less than its first', next);
        contents.push(' '.repeat(next.indent - column) + next.text);
      }
      this.#at++;
    }
    let trailing = 0;
    while (contents.length > 0 && contents.at(-1) === '') {
      contents.pop();
      trailing++;
    }
    const body = style === '|' ? contents.join('\n') : fold(contents);
    if (chomp === '-') return body;
    if (chomp === '+') return body + '\n'.repeat((body === '' ? 0 : 1) + trailing);
    return body === '' ? '' : `${body}\n`;
  }
}

/** `>`: lines joined by a space, blank lines kept as newlines, more-indented lines kept on their own. */
function fold(lines: readonly string[]): string {
  let out = '';
  let empty = 0;
  let started = false;
  let moreIndented = false;
  for (const line of lines) {
    if (line === '') {
      empty++;
      continue;
    }
    if (line.startsWith(' ') || line.startsWith('\t')) {
      moreIndented = true;
      out += '\n'.repeat(started ? 1 + empty : empty);
    } else if (moreIndented) {
      moreIndented = false;
      out += '\n'.repeat(empty + 1);
    } else if (empty === 0) {
      if (started) out += ' ';
    } else out += '\n'.repeat(empty);
    out += line;
    started = true;
    empty = 0;
  }
  return out;
}

/** `key: rest` when the text is a plain key and its colon, else undefined. */
function keyOf(text: string): { key: string; rest: string } | undefined {
  if (/^[\s#:[\]{},&*!|>'"%@`?]/.test(text) || isItem(text)) return undefined;
  const colon = /:(?:[\t ]|$)/.exec(text);
  if (colon === null) return undefined;
  const key = text.slice(0, colon.index).trimEnd();
  if (key === '' || /[\t ]#/.test(key)) return undefined;
  return { key, rest: text.slice(colon.index + 1).trim() };
}

function splitKey(line: Line): { key: string; rest: string } {
  if (line.text.startsWith('"') || line.text.startsWith("'")) {
    const { value, end } = quoted(line.text, line);
    const after = line.text.slice(end);
    if (!/^[\t ]*:(?:[\t ]|$)/.test(after)) fail('expected "key: value"', line);
    return { key: checkKey(value, line), rest: after.replace(/^[\t ]*:/, '').trim() };
  }
  const found = keyOf(line.text);
  if (found === undefined) fail('expected "key: value"', line);
  const { key, rest } = found as { key: string; rest: string };
  if (typeof typed(key, line) !== 'string') fail(`the key "${key}" is not a string; quote it`, line);
  return { key: checkKey(key, line), rest };
}

function checkKey(key: string, line: Line): string {
  if (key === '__proto__') fail('the key "__proto__" is not supported', line);
  return key;
}
