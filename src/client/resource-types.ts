/**
 * The shapes of resources and prompts as the client hands them back. Everything in them is data from the
 * server (names, descriptions, texts), never an instruction to anyone. Spec: T25/T26 (`Resource`,
 * `ResourceTemplate`, `ReadResourceResult`, `Prompt`, `GetPromptResult`).
 */
import type { CallOptions } from './call-options.js';
import type {
  Annotations,
  BlobResourceContents,
  ContentBlock,
  Icon,
  Role,
  TextResourceContents,
} from './content-blocks.js';

/** Options of the resource and prompt lists: those of every request, and the page bound. */
export interface ListOptions extends CallOptions {
  /** Most pages to follow. Default 100 (as for tools). */
  maxPages?: number;
}

/** An entry left out of a list or a result because it does not fit its schema, with the reason. */
export interface ExcludedEntry {
  /** The entry's `uri` or `name` when it has one as a string, else `(entry N)`. */
  name: string;
  /** Why, in the client's words (never the server's text). */
  reason: string;
}

/** A resource the server lists (`resources/list`). */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Raw size in bytes, if the server knows it. */
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A parameterized resource (`resources/templates/list`): `uriTemplate` is a URI template (`{name}` placeholders). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One part of a read resource: `'text' in contents` tells text from blob (base64). */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** `listResources()`: the usable resources and the ones left out. */
export interface ResourceList {
  resources: Resource[];
  excluded: ExcludedEntry[];
}

/** `listResourceTemplates()`: the usable templates and the ones left out. */
export interface ResourceTemplateList {
  resourceTemplates: ResourceTemplate[];
  excluded: ExcludedEntry[];
}

/** `readResource()`: the contents that fit the schema, and the ones left out. */
export interface ReadResourceResult {
  contents: ResourceContents[];
  excluded: ExcludedEntry[];
  _meta?: Record<string, unknown>;
}

/** An argument a prompt takes. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  [key: string]: unknown;
}

/** A prompt the server lists (`prompts/list`). */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `listPrompts()`: the usable prompts and the ones left out. */
export interface PromptList {
  prompts: Prompt[];
  excluded: ExcludedEntry[];
}

/** One message of a prompt; a content block the client cannot type is `UnknownContent`, as in tool results. */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** `getPrompt()`: the messages that fit the schema, and the ones left out. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  excluded: ExcludedEntry[];
  _meta?: Record<string, unknown>;
}
