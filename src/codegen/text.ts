/**
 * Server text on its way into generated source: a comment body that cannot end its comment or start a
 * line of code, a string literal that is only ever a literal, identifiers made from tool names, and a
 * last pass over the whole file that escapes every character a reader or a terminal could be fooled by.
 * Pure functions; no server string is ever placed in the output any other way.
 */
import { terminalText } from '../internal/terminal-text.js';

/** Longest comment body taken from one server string (titles, descriptions), in UTF-16 code units. */
export const MAX_COMMENT_CHARS = 4000;

/**
 * `text` as the body of a JSDoc block: escape sequences, controls and bidi controls removed (the one
 * terminal sanitizer: the file may be printed), every line terminator JavaScript knows (CR, U+2028,
 * U+2029) made a plain newline so no line can leave the comment, and `*​/` broken into `*\/` so the
 * comment cannot be closed early. Bounded by `max`.
 */
export function commentBody(text: string, max = MAX_COMMENT_CHARS): string {
  const lines = text.replace(/\r\n?|[\u2028\u2029]/g, '\n');
  return terminalText(lines, { max })
    .replace(/\*\//g, '*\\/')
    .replace(/[\u2028\u2029]/g, '\n')
    .trim();
}

/** A JSDoc block (each line starting ` * `) holding `paragraphs`, indented by `indent`; '' when empty. */
export function jsDoc(paragraphs: readonly string[], indent = ''): string {
  const body = paragraphs.filter((p) => p !== '').join('\n\n');
  if (body === '') return '';
  const lines = body.split('\n').map((raw) => {
    const line = raw.trimEnd();
    return line === '' ? `${indent} *` : `${indent} * ${line}`;
  });
  return `${indent}/**\n${lines.join('\n')}\n${indent} */\n`;
}

/** A TypeScript string literal holding exactly `value` (JSON's escaping; see `escapeInvisible` too). */
export function stringLiteral(value: string): string {
  return JSON.stringify(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Words that cannot name an interface member without quotes in every position we use them. */
const RESERVED = new Set(['__proto__', 'constructor']);

/** A property name in an interface or object literal: bare when it is a plain ASCII identifier, else quoted. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) && !RESERVED.has(name) ? name : stringLiteral(name);
}

/** A tool name that may lend its letters to a type name: a plain word, as most servers name tools. */
const PLAIN_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * A PascalCase type-name stem for the tool at `index`: from a plain name (`read_text_file` →
 * `ReadTextFile`, `get-sum` → `GetSum`), else `Tool<n>` — a name holding anything else (spaces,
 * punctuation, other scripts) lends nothing to the code. The caller makes stems unique.
 */
export function typeStem(name: string, index: number): string {
  if (!PLAIN_NAME.test(name)) return `Tool${index + 1}`;
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/**
 * The whole generated file, with every character outside printable text written as a `\uXXXX` escape:
 * C0 controls but tab and newline, DEL, C1 controls, U+2028/U+2029, bidi controls, zero-width and BOM. Server text
 * reaches the file only inside comments (where the escape is inert text) and string literals (where it is
 * the same character), so the meaning is kept and nothing can hide, reorder or split a line.
 */
export function escapeInvisible(source: string): string {
  return source.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
