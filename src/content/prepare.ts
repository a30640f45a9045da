/**
 * `prepare()`: a tool result with its binary content (image and audio `data`, embedded resource `blob`)
 * moved to files in a private directory, so a model sees a path and a hash instead of megabytes of
 * base64. Text, links and `structuredContent` stay as they are; the input is never modified. Sizes are
 * checked from the base64 length before anything is decoded; a block that is invalid or too large is
 * replaced by a text block saying so and listed in `problems`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { CallToolResult, ContentBlock, TextContent } from '../client/index.js';
import { McpError } from '../errors/index.js';
import { decodeBase64, decodedLength, isStrictBase64 } from './base64.js';
import { ensureDir, freshDir, removeDir, removeFile, writeContentFile } from './files.js';
import { extensionFor, sanitizeMimeType } from './mime.js';
import { type ResolvedOptions, resolveOptions } from './options.js';
import type {
  ContentProblem,
  ContentProblemReason,
  PreparedBlock,
  PreparedFile,
  PreparedResult,
  PrepareOptions,
} from './types.js';

type BinaryType = ContentProblem['type'];

/** A block holding base64 content, as found in the input. */
interface Binary {
  type: BinaryType;
  data: unknown;
  mimeType: unknown;
  /** The resource's `uri`, for `resource` blocks. */
  uri?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The base64 content of a block, or `undefined` for a block that is kept as it is. An `UnknownContent`
 * that wraps an image, audio or blob resource the client could not type (no `mimeType`, say) is looked
 * through: its payload is moved or dropped like any other, so no base64 stays inline.
 */
function binaryOf(outer: unknown): Binary | undefined {
  if (!isObject(outer)) return undefined;
  const block = outer['type'] === 'unknown' && isObject(outer['block']) ? outer['block'] : outer;
  const type = block['type'];
  if (type === 'image' || type === 'audio') return { type, data: block['data'], mimeType: block['mimeType'] };
  if (type !== 'resource') return undefined;
  const resource = block['resource'];
  // A text resource (or one with neither field) is kept; a `blob` wins over `text` when both are there.
  if (!isObject(resource) || resource['blob'] === undefined) return undefined;
  return { type, data: resource['blob'], mimeType: resource['mimeType'], uri: resource['uri'] };
}

/** The per-call state: the directory (made on first need), the files and the bytes so far. */
class Writer {
  dir: string | undefined;
  readonly #madeDir: boolean;
  readonly #options: ResolvedOptions;
  readonly files = new Map<string, PreparedFile>();
  readonly written: string[] = [];
  total = 0;

  constructor(options: ResolvedOptions, dir: string | undefined) {
    this.#options = options;
    this.dir = dir;
    this.#madeDir = dir === undefined;
  }

  async write(bytes: Buffer, mimeType: string): Promise<PreparedFile> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const name = `${sha256.slice(0, 32)}.${extensionFor(mimeType)}`;
    const known = this.files.get(name);
    // `audio/wav` and `audio/x-wav` share a file; each block keeps its own type.
    if (known !== undefined) return known.mimeType === mimeType ? known : { ...known, mimeType };
    this.dir ??= await freshDir();
    const file: PreparedFile = { path: path.join(this.dir, name), mimeType, bytes: bytes.byteLength, sha256 };
    if (await writeContentFile(this.dir, name, bytes)) this.written.push(file.path);
    this.files.set(name, file);
    return file;
  }

  /** Undoes what this call wrote, after a failure. */
  async undo(): Promise<void> {
    if (this.dir === undefined) return;
    if (this.#madeDir) await removeDir(this.dir);
    else for (const file of this.written) await removeFile(file);
  }

  get options(): ResolvedOptions {
    return this.#options;
  }
}

function dropped(
  index: number,
  type: BinaryType,
  reason: ContentProblemReason,
  detail: string,
  problems: ContentProblem[],
): TextContent {
  const message = `${type} content dropped: ${detail}`;
  problems.push({ index, type, reason, message });
  return { type: 'text', text: `[autos-mcp: ${message}]` };
}

async function prepareBlock(
  block: ContentBlock,
  index: number,
  writer: Writer,
  problems: ContentProblem[],
): Promise<PreparedBlock> {
  const binary = binaryOf(block);
  if (binary === undefined) return block;
  const { type, data } = binary;
  const drop = (reason: ContentProblemReason, detail: string) =>
    dropped(index, type, reason, detail, problems);
  if (typeof data !== 'string') return drop('invalid_base64', 'no base64 data');
  const { maxFileBytes, maxInlineBytes, maxTotalBytes } = writer.options;
  // Limits first, from the length alone: a huge string is neither scanned nor decoded.
  const size = decodedLength(data);
  if (size > maxFileBytes) return drop('too_large', `${size} bytes is over maxFileBytes (${maxFileBytes})`);
  if (maxInlineBytes > 0 && size <= maxInlineBytes)
    return isStrictBase64(data) ? block : drop('invalid_base64', 'invalid base64');
  if (writer.total + size > maxTotalBytes)
    return drop('total_too_large', `${size} more bytes would pass maxTotalBytes (${maxTotalBytes})`);
  if (!isStrictBase64(data)) return drop('invalid_base64', 'invalid base64');
  writer.total += size;
  const file = await writer.write(decodeBase64(data), sanitizeMimeType(binary.mimeType));
  if (type !== 'resource') return { type, ...file };
  return typeof binary.uri === 'string' ? { type, uri: binary.uri, ...file } : { type, ...file };
}

/**
 * Moves the binary content of `result` to files (see the file comment and docs/content.md). Resolves
 * with a new result; `result` is not modified, and the parts kept (text blocks, `structuredContent`, …)
 * are the same objects. Throws `McpError` kind `config` for bad options, an unusable directory or a
 * failed write (then the files this call wrote are removed again).
 */
export async function prepare(result: CallToolResult, options?: PrepareOptions): Promise<PreparedResult> {
  const resolved = resolveOptions(options);
  if (!isObject(result) || !Array.isArray(result.content))
    throw new McpError('config', 'content: prepare() wants a tool result with a content array');
  const dir = resolved.dir === undefined ? undefined : await ensureDir(resolved.dir);
  const writer = new Writer(resolved, dir);
  const problems: ContentProblem[] = [];
  const content: PreparedBlock[] = [];
  try {
    for (const [index, block] of result.content.entries())
      content.push(await prepareBlock(block, index, writer, problems));
  } catch (error) {
    await writer.undo();
    throw error;
  }
  return { ...result, content, files: [...writer.files.values()], dir: writer.dir, problems };
}
