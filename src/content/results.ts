/**
 * Small pure readers of a tool result: its text, and its structured content under a type you name. Each
 * is a plain function of the result (nothing is kept or fetched), so an import of one pulls in nothing
 * else. They take complete results only: an `input_required` result must be told apart first
 * (`isInputRequired`), and the compiler says so.
 */
import type { ContentBlock } from '../client/index.js';
import type { PreparedBlock } from './types.js';

/** What the readers accept: a complete `CallToolResult`, or what `prepare()` made of one. */
export interface ResultWithContent {
  content: readonly (ContentBlock | PreparedBlock)[];
  structuredContent?: unknown;
}

/**
 * The text of a result: its `text` blocks, in order, joined with `separator` (default a newline). Other
 * blocks (images, links, resources, unknown ones) are skipped; `''` when there is no text block.
 * Server text: show it through a sanitizer before it reaches a terminal.
 */
export function textOf(result: ResultWithContent, separator = '\n'): string {
  const texts: string[] = [];
  for (const block of result.content)
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  return texts.join(separator);
}

/**
 * The result's `structuredContent` typed as `T`, or `undefined` when it has none. Not validated: `T` is
 * your reading of the tool's `outputSchema`, and the server's answer is its word (check what matters).
 */
export function structuredOf<T = unknown>(result: ResultWithContent): T | undefined {
  return result.structuredContent as T | undefined;
}
