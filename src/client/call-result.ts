/**
 * The check that makes `callTool`'s types true: a `tools/call` result is a complete `CallToolResult` or,
 * only in 2026-07-28, an `input_required` result; every content block fits its type or is handed back as
 * `UnknownContent` with the reason. Pure: no I/O, never throws on a block, only on a result whose shape
 * no type can describe (`protocol`, `delivered`: the tool ran). Spec: T25/T26 `CallToolResult`,
 * `ContentBlock`; S26/basic/patterns/mrtr (`input_required` exists only in 2026).
 */
import { McpError } from '../errors/index.js';
import type { Era } from '../protocol/versions.js';
import type { ContentBlock } from './content-blocks.js';
import type { ToolCallOutcome } from './types.js';

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `key` is absent, or present and passes `check`. A present `undefined` fails (the types say absent). */
function optional(object: Fields, key: string, check: (value: unknown) => boolean): boolean {
  return !Object.hasOwn(object, key) || check(object[key]);
}

const isString = (value: unknown): boolean => typeof value === 'string';
const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
const isStrings = (value: unknown): boolean => Array.isArray(value) && value.every(isString);

function isAnnotations(value: unknown): boolean {
  return (
    isObject(value) &&
    optional(
      value,
      'audience',
      (a) => Array.isArray(a) && a.every((r) => r === 'user' || r === 'assistant'),
    ) &&
    optional(value, 'priority', isNumber) &&
    optional(value, 'lastModified', isString)
  );
}

function isIcon(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value['src']) &&
    optional(value, 'mimeType', isString) &&
    optional(value, 'sizes', isStrings) &&
    optional(value, 'theme', (t) => t === 'light' || t === 'dark')
  );
}

/** What is wrong with the fields every block may have, or undefined. */
function commonProblem(block: Fields): string | undefined {
  if (!optional(block, 'annotations', isAnnotations)) return 'annotations do not fit the schema';
  if (!optional(block, '_meta', isObject)) return '_meta is not an object';
  return undefined;
}

/** Why `resource` is not text or blob resource contents, or undefined when it is. */
export function resourceProblem(resource: unknown): string | undefined {
  if (!isObject(resource)) return 'resource is not an object';
  if (!isString(resource['uri'])) return 'resource.uri is not a string';
  if (!optional(resource, 'mimeType', isString)) return 'resource.mimeType is not a string';
  if (!optional(resource, '_meta', isObject)) return 'resource._meta is not an object';
  const text = resource['text'];
  const blob = resource['blob'];
  if (text === undefined && blob === undefined) return 'resource has neither text nor blob';
  if (!optional(resource, 'text', isString)) return 'resource.text is not a string';
  if (!optional(resource, 'blob', isString)) return 'resource.blob is not a string';
  return undefined;
}

/** Why `block` is not one of the typed blocks, or undefined when it is. The reason never quotes the server. */
export function blockProblem(block: unknown): string | undefined {
  if (!isObject(block)) return 'the block is not an object';
  const type = block['type'];
  const common = commonProblem(block);
  const problem = (what: string, detail: string | undefined) =>
    detail === undefined ? undefined : `${what} block: ${detail}`;
  switch (type) {
    case 'text':
      return problem('text', isString(block['text']) ? common : 'text is not a string');
    case 'image':
    case 'audio':
      if (!isString(block['data'])) return problem(type, 'data is not a string');
      return problem(type, isString(block['mimeType']) ? common : 'mimeType is not a string');
    case 'resource_link': {
      if (!isString(block['uri'])) return problem(type, 'uri is not a string');
      if (!isString(block['name'])) return problem(type, 'name is not a string');
      for (const key of ['title', 'description', 'mimeType'])
        if (!optional(block, key, isString)) return problem(type, `${key} is not a string`);
      if (!optional(block, 'size', isNumber)) return problem(type, 'size is not a number');
      if (!optional(block, 'icons', (icons) => Array.isArray(icons) && icons.every(isIcon)))
        return problem(type, 'icons do not fit the schema');
      return problem(type, common);
    }
    case 'resource':
      return problem('resource', resourceProblem(block['resource']) ?? common);
    default:
      // Any other type, including `unknown` itself: a server cannot pass a block off as the client's wrapper.
      return 'its type is not a content type of 2025-11-25 or 2026-07-28';
  }
}

/** The blocks, each one typed or wrapped as `UnknownContent`; the same array when every block fits. */
export function checkContent(blocks: readonly unknown[]): ContentBlock[] {
  let out: ContentBlock[] | undefined;
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index];
    const reason = blockProblem(block);
    if (reason === undefined && out === undefined) continue;
    out ??= blocks.slice(0, index) as ContentBlock[];
    out.push(reason === undefined ? (block as ContentBlock) : { type: 'unknown', block, reason });
  }
  return out ?? (blocks as ContentBlock[]);
}

/**
 * Checks a `tools/call` result for `what` (`tools/call echo on node server.mjs`) in `era`. In 2025-11-25 an
 * `input_required` result (or any `resultType` but `complete`) is a protocol error, so a 2025 client's
 * result is always complete; in 2026 an `input_required` result is returned as data (without `content`).
 * A missing `content` is `[]` (as the official SDK reads it); one that is not an array, an `isError` that
 * is not a boolean or a `_meta` that is not an object is a protocol error.
 */
export function checkCallResult(raw: Fields, era: Era, what: string): ToolCallOutcome {
  const fail = (why: string) =>
    new McpError('protocol', `${what}: the server answered with ${why}`, { delivery: 'delivered' });
  const type = raw['resultType'];
  if (type === 'input_required' && era === 'modern') {
    if (!Object.hasOwn(raw, 'content')) return raw as ToolCallOutcome;
    const { content: _dropped, ...rest } = raw;
    return rest as ToolCallOutcome;
  }
  if (type !== undefined && type !== 'complete')
    throw fail(
      `a resultType other than "complete" (${era === 'legacy' ? 'input_required and other result types do not exist in 2025-11-25' : 'not a tools/call result type'})`,
    );
  if (!optional(raw, 'isError', (v) => typeof v === 'boolean'))
    throw fail('an isError that is not a boolean');
  if (!optional(raw, '_meta', isObject)) throw fail('a _meta that is not an object');
  const content = raw['content'];
  if (content === undefined) return { ...raw, content: [] } as ToolCallOutcome;
  if (!Array.isArray(content)) throw fail('a content that is not an array');
  const checked = checkContent(content);
  return (checked === content ? raw : { ...raw, content: checked }) as ToolCallOutcome;
}
