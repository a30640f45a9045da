/**
 * `autos-mcp/content`: move the binary content of tool results (images, audio, embedded blobs) to local
 * files so it does not flood a model's context, and the parts of content blocks (the blocks themselves are
 * in the main entry). Read docs/content.md.
 */
export type {
  Annotations,
  BlobResourceContents,
  Icon,
  Role,
  TextResourceContents,
} from '../client/content-blocks.js';
export { prepare } from './prepare.js';
export { type ResultWithContent, structuredOf, textOf } from './results.js';
export type {
  ContentProblem,
  ContentProblemReason,
  PreparedBlock,
  PreparedFile,
  PreparedMediaBlock,
  PreparedResourceBlock,
  PreparedResult,
  PrepareOptions,
} from './types.js';
