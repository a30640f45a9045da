/**
 * The shapes of `autos-mcp/content`: the options of `prepare()`, the result it resolves with, the blocks
 * that replace binary content, the files written and the problems found. Plain types only; the work is
 * done in `prepare.ts`.
 */
import type { ContentBlock } from '../client/index.js';

/** The options of `prepare(result, options)`. Sizes are decoded bytes. */
export interface PrepareOptions {
  /**
   * Where files go. Created (mode 0700, with its missing parents) when it does not exist; an existing one
   * must be a real directory (not a symlink) and, on POSIX, owned by this user and not writable by group
   * or others. Default: a fresh `autos-mcp-content-<random>` directory under `os.tmpdir()`, made (0700)
   * only when a file is written. The caller deletes it.
   */
  dir?: string;
  /**
   * Content of at most this many bytes stays inline, unchanged. Default `0`: every binary block is moved
   * to a file, whatever its size.
   */
  maxInlineBytes?: number;
  /** Largest single block moved to a file; a larger one is dropped with a problem. Default 64 MiB. */
  maxFileBytes?: number;
  /**
   * Most bytes moved to files by one call (every moved block counts, repeats too); a block that would go
   * past it is dropped with a problem. Default 256 MiB.
   */
  maxTotalBytes?: number;
}

/** A file `prepare()` wrote (or found already written with the same bytes). */
export interface PreparedFile {
  /** Absolute path: `<dir>/<first 32 hex of sha256>.<extension of mimeType>`. */
  path: string;
  /** The sanitized MIME type (`type/subtype`, lowercase) or `application/octet-stream`. */
  mimeType: string;
  /** Size in bytes. */
  bytes: number;
  /** SHA-256 of the bytes, 64 lowercase hex digits. */
  sha256: string;
}

/** An `image` or `audio` block whose `data` was moved to a file. */
export interface PreparedMediaBlock extends PreparedFile {
  type: 'image' | 'audio';
  [key: string]: unknown;
}

/** An embedded `resource` block whose `blob` was moved to a file; `uri` is kept as data, as the server sent it. */
export interface PreparedResourceBlock extends PreparedFile {
  type: 'resource';
  uri?: string;
  [key: string]: unknown;
}

/** A block of `prepared.content`: a moved block, or a block kept as it was (text, links, inline content). */
export type PreparedBlock = PreparedMediaBlock | PreparedResourceBlock | ContentBlock;

/** Why a block was dropped. */
export type ContentProblemReason = 'invalid_base64' | 'too_large' | 'total_too_large';

/** A block that was dropped and replaced by a text block saying so. */
export interface ContentProblem {
  /** Position of the block in `content` (the same in input and output). */
  index: number;
  /** The block's type: `image`, `audio` or `resource`. */
  type: 'image' | 'audio' | 'resource';
  reason: ContentProblemReason;
  /** What the replacing text block says (without the `[autos-mcp: …]` brackets). Never holds content data. */
  message: string;
}

/**
 * What `prepare()` resolves with: the result's own fields (`structuredContent`, `isError`, `_meta`, …, the
 * same values), `content` with binary content moved to files, and what was written and dropped.
 */
export interface PreparedResult {
  content: PreparedBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  resultType?: 'complete';
  _meta?: Record<string, unknown>;
  /** Every file the blocks point to, each once, in order of first use. */
  files: PreparedFile[];
  /** The directory of the files; `undefined` when no `dir` was given and nothing had to be written. */
  dir: string | undefined;
  /** The blocks that were dropped. */
  problems: ContentProblem[];
  [key: string]: unknown;
}
