/**
 * JSON config files, parsed by `jsonc-parser` (loaded on first use): comments and trailing commas are
 * accepted where the client that owns the file accepts them (VS Code, Cursor, OpenCode and autos-mcp's own
 * files), refused elsewhere. An error is a line number and the parser's error code, never the text.
 */
import type { ParseError } from 'jsonc-parser';

export type Parsed =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly line?: number; readonly message: string };

export interface JsonOptions {
  /** Accept `//` and `/* *\/` comments and trailing commas (JSONC). */
  readonly lenient: boolean;
}

export async function parseJson(text: string, options: JsonOptions): Promise<Parsed> {
  const { parse, printParseErrorCode } = await import('jsonc-parser');
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parse(text, errors, {
      disallowComments: !options.lenient,
      allowTrailingComma: options.lenient,
      allowEmptyContent: false,
    });
  } catch {
    // A stack overflow on deeply nested input: still a problem of the file, not a crash.
    return { ok: false, message: 'is not valid JSON (nested too deeply)' };
  }
  const first = errors[0];
  if (first !== undefined) {
    const what = printParseErrorCode(first.error);
    const kind = options.lenient ? 'JSON with comments' : 'JSON';
    return { ok: false, line: lineAt(text, first.offset), message: `is not valid ${kind} (${what})` };
  }
  return { ok: true, value };
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
