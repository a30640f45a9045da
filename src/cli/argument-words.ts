/**
 * The words after `autos-mcp call <tool>`: `key=value`, `key:=<json>`, `key=@file`, a JSON object or `-`
 * (stdin), checked for syntax only: no schema needed, nothing read. Pure; files and stdin are read by the
 * shell (`argument-sources.ts`), and the schema types the values (`tool-arguments.ts`).
 */

import { safeText } from './format.js';
import { UsageError } from './usage-error.js';

/** Most problems reported. */
export const MAX_PROBLEMS = 10;

/** Arguments that do not fit the tool's schema (or are not `key=value` words): a usage error, exit code 2. */
export class ArgumentError extends UsageError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('; '));
    this.problems = problems;
  }
}

/** One word after the tool name, parsed (nothing read yet). `source` is a file path, or `-` for stdin. */
export type ArgumentWord =
  | { readonly kind: 'object'; readonly text?: string; readonly source?: '-' }
  | {
      readonly kind: 'pair';
      readonly key: string;
      /** `text`: coerced by the schema (`key=value`, `key=@file`); `json`: parsed (`key:=json`, `key:=@file`). */
      readonly mode: 'text' | 'json';
      readonly value?: string;
      readonly source?: string;
    };

/** What the shell read for a file or stdin source: its text, or why not (a message naming the path). */
export type SourceText = { readonly text: string } | { readonly problem: string };

/** A word as quoted in a message: bounded, terminal-safe. */
export function quoted(word: string, max = 60): string {
  const cut = word.length > max ? `${word.slice(0, max - 1)}…` : word;
  return JSON.stringify(safeText(cut).replace(/\s+/g, ' '));
}

/**
 * The words after the tool name, checked for syntax only (no schema needed, nothing read): a JSON object
 * (`{…}`) or `-` at most once, and `key=value`, `key:=json`, `key=@path`, `key:=@path` (`@-`: stdin).
 * A value that starts with a literal `@` is written `key=\@…`.
 */
export function parseArgumentWords(words: readonly string[]): ArgumentWord[] | ArgumentError {
  const parsed: ArgumentWord[] = [];
  const problems: string[] = [];
  let objects = 0;
  let stdin = 0;
  for (const word of words) {
    if (word === '-' || /^\s*[{[]/.test(word)) {
      objects++;
      if (word === '-') stdin++;
      else {
        const json = parseJson(word);
        if (json === undefined) {
          problems.push(`the JSON argument is not valid JSON (quote it: '{"key":"value"}')`);
          continue;
        }
        if (record(json.value) === undefined) {
          problems.push('the JSON argument must be a JSON object ({"key": value, …})');
          continue;
        }
      }
      parsed.push(word === '-' ? { kind: 'object', source: '-' } : { kind: 'object', text: word });
      continue;
    }
    const eq = word.indexOf('=');
    if (eq === -1 || eq === 0 || (eq === 1 && word[0] === ':')) {
      problems.push(
        eq === -1
          ? `${quoted(word)} is not key=value (a string), key:=<json>, key=@<file>, a JSON object or - (stdin)`
          : `${quoted(word)} has no key before =`,
      );
      continue;
    }
    const json = word[eq - 1] === ':';
    const key = word.slice(0, json ? eq - 1 : eq);
    let value = word.slice(eq + 1);
    if (value.startsWith('@')) {
      if (value === '@-') stdin++;
      else if (value === '@') {
        problems.push(`${quoted(word)}: @ needs a file path (key=@path, or @- for stdin)`);
        continue;
      }
      parsed.push({ kind: 'pair', key, mode: json ? 'json' : 'text', source: value.slice(1) });
      continue;
    }
    if (json && parseJson(value) === undefined) {
      problems.push(`${quoted(key)}: the value after := is not valid JSON (${quoted(word)})`);
      continue;
    }
    if (!json && value.startsWith('\\@')) value = value.slice(1);
    parsed.push({ kind: 'pair', key, mode: json ? 'json' : 'text', value });
  }
  if (objects > 1) problems.push('give at most one JSON object (or -); add other keys as key=value');
  if (stdin > 1) problems.push('stdin can be read once: give - or one key=@- only');
  return problems.length > 0 ? new ArgumentError(problems.slice(0, MAX_PROBLEMS)) : parsed;
}

/** The files (and `-` for stdin) that the words read, in order, each once. */
export function argumentSources(words: readonly ArgumentWord[]): string[] {
  return [...new Set(words.flatMap((w) => (w.source === undefined ? [] : [w.source])))];
}

/** `value` as a JSON object, or undefined (an array, null or a scalar). */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** `text` parsed as JSON, or undefined when it is not valid JSON. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
