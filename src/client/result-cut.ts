/**
 * A result over its budget, cut to fit, still a valid `CallToolResult`: `structuredContent` kept whole when
 * it fits (it is the typed value code reads; it cannot be shortened and stay valid), then the content
 * blocks in order — whole while they fit, the first text block that does not fit shortened (never inside
 * a surrogate pair), everything after it left out — and last a text block, the marker, that says the
 * result was cut, its size and the file that holds it whole. `_meta` and fields this client does not know
 * are left out (they are in the file). Pure; costs O(budget + values seen).
 */
import { jsonPrefix, jsonSizeWithin } from '../internal/json-size.js';
import type { ContentBlock, TextContent } from './content-blocks.js';
import type { CallToolResult, ResultTruncation } from './types.js';

/** What `cutResult` needs. */
export interface CutInput {
  /** The model-facing form over budget (repeats of `structuredContent` left out). */
  form: CallToolResult;
  /** The content to fill from when `structuredContent` is left out: the repeats put back. */
  contentWithRepeats: readonly ContentBlock[];
  budget: number;
  truncated: ResultTruncation;
}

/** `,"structuredContent":` — what keeping it adds besides its own JSON. */
const STRUCTURED_KEY = 21;
/** `{"type":"text","text":""}` — a shortened text block besides its text. */
const EMPTY_TEXT_BLOCK = 25;

function marker(input: CutInput, keptStructured: boolean): TextContent {
  const { budget, truncated } = input;
  const left =
    input.form.structuredContent !== undefined && !keptStructured
      ? '; structuredContent left out (over the budget)'
      : '';
  return {
    type: 'text',
    text:
      `[autos-mcp: result cut to maxResultChars ${budget}${left}; the whole result ` +
      `(${truncated.originalChars} characters of JSON) is in ${truncated.file}]`,
  };
}

/** The result with `content` as given and the fields a cut result keeps. */
function shell(input: CutInput, content: ContentBlock[], structured: unknown): CallToolResult {
  const { form } = input;
  const out: CallToolResult = { content };
  if (structured !== undefined) out.structuredContent = structured;
  if (form.isError !== undefined) out.isError = form.isError;
  if (form.resultType !== undefined) out.resultType = form.resultType;
  out.truncated = input.truncated;
  return out;
}

/** Cuts `input.form` so its JSON is at most `input.budget` characters (see the file comment). */
export function cutResult(input: CutInput): CallToolResult {
  const { form, budget } = input;
  const structured = form.structuredContent;
  let keep = false;
  let room = 0;
  if (structured !== undefined) {
    const sized = jsonSizeWithin(structured, budget);
    const fixed = jsonSizeWithin(shell(input, [marker(input, true)], undefined), budget);
    room = budget - fixed - STRUCTURED_KEY - sized;
    keep = room >= 0;
  }
  const last = marker(input, keep);
  if (!keep) room = budget - jsonSizeWithin(shell(input, [last], undefined), budget);
  const source = keep ? form.content : input.contentWithRepeats;
  const content: ContentBlock[] = [];
  for (const block of source) {
    if (room <= 1) break;
    const size = jsonSizeWithin(block, room - 1);
    if (size !== Number.POSITIVE_INFINITY) {
      content.push(block);
      room -= size + 1;
      continue;
    }
    if (block.type === 'text' && typeof block.text === 'string') {
      const text = jsonPrefix(block.text, room - 1 - EMPTY_TEXT_BLOCK);
      if (text !== '') content.push({ type: 'text', text });
    }
    break;
  }
  content.push(last);
  return shell(input, content, keep ? structured : undefined);
}
