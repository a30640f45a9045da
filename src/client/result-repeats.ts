/**
 * A result without the text blocks that repeat its `structuredContent`. The spec asks a tool that returns
 * structured content to also put "the serialized JSON in a TextContent block" for older clients
 * (S25+26/server/tools, structured content), so a model reading both would read the same data twice. A
 * text block is a repeat when its text parses as JSON equal (deeply, keys in any order) to
 * `structuredContent`. Bounded: only texts of at most `MAX_REPEAT_CHARS` that start (after spaces) with
 * `{` or `[` are parsed; parsing and comparing are linear in the text and work at any depth.
 */
import { sameJson } from '../internal/json-text.js';
import type { ContentBlock } from './content-blocks.js';
import type { CallToolResult } from './types.js';

/** Longest text checked for being a repeat (1 MiB of characters): a longer one is kept (and cut, if over budget). */
export const MAX_REPEAT_CHARS = 1024 * 1024;

/** True when `block` is a text block whose text is the JSON of `structured`. */
function repeats(block: ContentBlock, structured: unknown): boolean {
  if (block.type !== 'text' || typeof block.text !== 'string') return false;
  const text = block.text;
  if (text.length > MAX_REPEAT_CHARS) return false;
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return sameJson(parsed, structured);
}

/**
 * `result` without the text blocks that repeat its `structuredContent`, and those blocks' indexes (to
 * put them back if `structuredContent` is dropped). The same object when nothing repeats.
 */
export function withoutRepeats(result: CallToolResult): { result: CallToolResult; dropped: number[] } {
  const structured = result.structuredContent;
  if (structured === undefined || structured === null || !Array.isArray(result.content))
    return { result, dropped: [] };
  const dropped: number[] = [];
  const content = result.content.filter((block, index) => {
    if (!repeats(block, structured)) return true;
    dropped.push(index);
    return false;
  });
  return dropped.length === 0 ? { result, dropped } : { result: { ...result, content }, dropped };
}
