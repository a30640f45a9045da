/**
 * The code as the body of an async function, compiled in the sandbox. JavaScript is compiled as given;
 * TypeScript has its types stripped by sucrase first (imported only then: ~90 ms once, ~0.3-5 ms a source),
 * which keeps every line where it was, so error lines stay those of the given source. With no `language`,
 * the source is compiled as JavaScript and, only if that is a syntax error, as TypeScript: plain JavaScript
 * never loads sucrase, and code with types still runs (a source valid in both languages with two meanings,
 * such as `a < b > (c)`, runs as JavaScript: say `language: 'ts'` to mean the other).
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { CODE_FILE } from './prelude.js';
import type { RunError } from './types.js';

/** Lines the wrapper adds above the code: an engine line minus this is a line of the given source. */
export const WRAPPER_LINES = 1;

/** The compiled function (call it to start the code), or why the source does not compile. */
export type Compiled = { fn: QuickJSHandle } | { error: RunError; engineError?: QuickJSHandle };

function wrap(body: string): string {
  // The closing brace on its own line: a trailing `// comment` in the code cannot swallow it.
  return `(async () => {\n${body}\n})`;
}

function evaluate(context: QuickJSContext, code: string): Compiled {
  const result = context.evalCode(code, CODE_FILE, { type: 'global', strict: false });
  if (result.error === undefined) return { fn: result.value };
  return { error: { kind: 'syntax', message: '' }, engineError: result.error };
}

async function stripTypes(source: string): Promise<{ code: string } | { error: RunError }> {
  const { transform } = await import('sucrase');
  try {
    return { code: transform(wrap(source), { transforms: ['typescript'] }).code };
  } catch (error) {
    const loc = (error as { loc?: { line?: unknown } }).loc;
    const line = typeof loc?.line === 'number' ? loc.line - WRAPPER_LINES : undefined;
    const message = error instanceof Error ? error.message : String(error);
    return {
      error: {
        kind: 'syntax',
        message: `TypeScript: ${message.replace(/ \(\d+:\d+\)$/, '')}`,
        ...(line !== undefined && line > 0 ? { line } : {}),
      },
    };
  }
}

/**
 * Compiles `source` in `context`. A syntax error from the engine comes back as `engineError` (a handle the
 * caller reads with the prelude's `errorInfo` and disposes); one from sucrase as a finished `RunError`.
 */
export async function compile(
  context: QuickJSContext,
  source: string,
  language: 'js' | 'ts' | undefined,
): Promise<Compiled> {
  if (language === 'ts') {
    const stripped = await stripTypes(source);
    return 'error' in stripped ? stripped : evaluate(context, stripped.code);
  }
  const asJs = evaluate(context, wrap(source));
  if ('fn' in asJs || language === 'js') return asJs;
  // Not JavaScript: TypeScript? When sucrase cannot parse it either, the engine's message (more precise
  // than sucrase's) is the one to show.
  const stripped = await stripTypes(source);
  if ('error' in stripped) return asJs;
  asJs.engineError?.dispose();
  return evaluate(context, stripped.code);
}
