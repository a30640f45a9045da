/**
 * The content blocks of a tool result as a union discriminated by `type`, with the fields both revisions'
 * schemas define (T25/T26 `ContentBlock`: `TextContent`, `ImageContent`, `AudioContent`, `ResourceLink`,
 * `EmbeddedResource`). The client checks every block against these shapes (`call-result.ts`); a block
 * that fits none of them is handed back as `UnknownContent`, so `block.type === 'image'` narrows to
 * `ImageContent` and the types never claim more than the server sent.
 */

/** Who a block is meant for (T25/T26 `Role`). */
export type Role = 'user' | 'assistant';

/** Hints for the client about a block (T25/T26 `Annotations`). Server data: hints, not instructions. */
export interface Annotations {
  audience?: Role[];
  /** 0 (least important) to 1 (most). */
  priority?: number;
  /** ISO 8601 time, as the server wrote it. */
  lastModified?: string;
  [key: string]: unknown;
}

/** An icon a resource link may carry (T25/T26 `Icon`). `src` is server data: fetch it only if you trust it. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
  [key: string]: unknown;
}

/** The fields every content block may have. */
interface BlockFields {
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
  /** Servers may add fields; they are kept as sent, untyped. */
  [key: string]: unknown;
}

/** Text for a model or a person. */
export interface TextContent extends BlockFields {
  type: 'text';
  text: string;
}

/** An image: `data` is base64 (`Buffer.from(block.data, 'base64')`), `mimeType` as the server said. */
export interface ImageContent extends BlockFields {
  type: 'image';
  data: string;
  mimeType: string;
}

/** Audio: `data` is base64, `mimeType` as the server said. */
export interface AudioContent extends BlockFields {
  type: 'audio';
  data: string;
  mimeType: string;
}

/** A link to a resource the server can read (`resources/read`); not necessarily in `resources/list`. */
export interface ResourceLink extends BlockFields {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Raw size in bytes, if known. */
  size?: number;
  icons?: Icon[];
}

/** The fields of an embedded resource's contents. */
interface ResourceContentsFields {
  uri: string;
  mimeType?: string;
  _meta?: Record<string, unknown>;
}

/** An embedded resource that is text. */
export interface TextResourceContents extends ResourceContentsFields {
  text: string;
}

/** An embedded resource that is binary: `blob` is base64. */
export interface BlobResourceContents extends ResourceContentsFields {
  blob: string;
}

/** A resource embedded in the result: `'text' in block.resource` tells text from blob. */
export interface EmbeddedResource extends BlockFields {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
}

/**
 * A block the client cannot type: a `type` that neither 2025-11-25 nor 2026-07-28 defines (a later
 * revision's, or a server's own), or a known `type` whose fields break its schema (an image whose `data`
 * is not a string). `block` is what the server sent, untouched; `reason` says why, in the client's words
 * (never the server's text). `unknown` is not a type of either revision, so this member never blurs the
 * narrowing of the others.
 */
export interface UnknownContent {
  type: 'unknown';
  /** The block exactly as the server sent it. */
  block: unknown;
  /** Why it is not one of the typed blocks, e.g. `image block: data is not a string`. */
  reason: string;
  [key: string]: unknown;
}

/** One content block of a tool result. Narrow on `type`. */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLink
  | EmbeddedResource
  | UnknownContent;
