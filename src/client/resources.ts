/**
 * Resources and prompts: `resources/list`, `resources/templates/list`, `resources/read`, `prompts/list`
 * and `prompts/get`, over the client's `request`. Lists follow pagination through the same bounded pager as
 * tools (`fetchAllPages`: page limit, repeated-cursor detection). Each entry is checked loosely but safely:
 * one that breaks its schema is left out with a reason (never the server's text) instead of failing the
 * whole answer. Spec: S25+26/server/resources, S25+26/server/prompts, S25+26/server/utilities/pagination.
 */
import { McpError } from '../errors/index.js';
import type { CallOptions } from './call-options.js';
import { checkContent, resourceProblem } from './call-result.js';
import type { ContentBlock } from './content-blocks.js';
import type {
  ExcludedEntry,
  GetPromptResult,
  ListOptions,
  Prompt,
  PromptList,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceList,
  ResourceTemplate,
  ResourceTemplateList,
} from './resource-types.js';
import { DEFAULT_MAX_PAGES, fetchAllPages } from './tools.js';

type Fields = Record<string, unknown>;

/** What these calls need from a client: its `request` and a display name. */
export interface RequestSeam {
  request(method: string, params: Fields, options: CallOptions): Promise<Fields>;
  readonly target: string;
}

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const optional = (entry: Fields, key: string, check: (value: unknown) => boolean) =>
  entry[key] === undefined || check(entry[key]);

function callOptions(options: ListOptions): CallOptions {
  const { maxPages: _pages, ...rest } = options;
  return rest;
}

function labelOf(entry: unknown, keys: readonly string[], index: number): string {
  if (isObject(entry))
    for (const key of keys) {
      const value = entry[key];
      if (isString(value) && value !== '') return value.slice(0, 512);
    }
  return `(entry ${index + 1})`;
}

/** A problem with the fields resources and templates share, or undefined. */
function describedProblem(entry: Fields): string | undefined {
  if (!isString(entry['name'])) return 'name is missing or not a string';
  for (const key of ['title', 'description', 'mimeType'])
    if (!optional(entry, key, isString)) return `${key} is not a string`;
  if (!optional(entry, 'annotations', isObject)) return 'annotations is not an object';
  if (!optional(entry, 'icons', Array.isArray)) return 'icons is not an array';
  if (!optional(entry, '_meta', isObject)) return '_meta is not an object';
  return undefined;
}

function resourceEntryProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'the entry is not an object';
  if (!isString(entry['uri']) || entry['uri'] === '') return 'uri is missing or not a string';
  if (!optional(entry, 'size', (v) => typeof v === 'number' && Number.isFinite(v)))
    return 'size is not a number';
  return describedProblem(entry);
}

function templateProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'the entry is not an object';
  if (!isString(entry['uriTemplate']) || entry['uriTemplate'] === '')
    return 'uriTemplate is missing or not a string';
  return describedProblem(entry);
}

function promptProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'the entry is not an object';
  if (!isString(entry['name']) || entry['name'] === '') return 'name is missing or not a string';
  for (const key of ['title', 'description'])
    if (!optional(entry, key, isString)) return `${key} is not a string`;
  const args = entry['arguments'];
  if (args !== undefined) {
    if (!Array.isArray(args)) return 'arguments is not an array';
    for (const arg of args) {
      if (!isObject(arg) || !isString(arg['name'])) return 'an argument has no name';
      if (!optional(arg, 'required', (v) => typeof v === 'boolean'))
        return 'an argument.required is not a boolean';
    }
  }
  if (!optional(entry, '_meta', isObject)) return '_meta is not an object';
  return undefined;
}

/** Sorts raw entries into kept and excluded; never throws on server data. */
function sortEntries<T>(
  raw: readonly unknown[],
  problem: (entry: unknown) => string | undefined,
  keys: readonly string[],
): { kept: T[]; excluded: ExcludedEntry[] } {
  const kept: T[] = [];
  const excluded: ExcludedEntry[] = [];
  raw.forEach((entry, index) => {
    const reason = problem(entry);
    if (reason === undefined) kept.push(entry as T);
    else excluded.push({ name: labelOf(entry, keys, index), reason });
  });
  return { kept, excluded };
}

async function listAll(seam: RequestSeam, method: string, key: string, options: ListOptions) {
  const sendOptions = callOptions(options);
  const { items } = await fetchAllPages(
    (cursor) => seam.request(method, cursor === undefined ? {} : { cursor }, sendOptions),
    seam.target,
    options.maxPages ?? DEFAULT_MAX_PAGES,
    method,
    key,
  );
  return items;
}

export async function listResources(seam: RequestSeam, options: ListOptions = {}): Promise<ResourceList> {
  const items = await listAll(seam, 'resources/list', 'resources', options);
  const { kept, excluded } = sortEntries<Resource>(items, resourceEntryProblem, ['uri', 'name']);
  return { resources: kept, excluded };
}

export async function listResourceTemplates(
  seam: RequestSeam,
  options: ListOptions = {},
): Promise<ResourceTemplateList> {
  const items = await listAll(seam, 'resources/templates/list', 'resourceTemplates', options);
  const { kept, excluded } = sortEntries<ResourceTemplate>(items, templateProblem, ['uriTemplate', 'name']);
  return { resourceTemplates: kept, excluded };
}

export async function listPrompts(seam: RequestSeam, options: ListOptions = {}): Promise<PromptList> {
  const items = await listAll(seam, 'prompts/list', 'prompts', options);
  const { kept, excluded } = sortEntries<Prompt>(items, promptProblem, ['name']);
  return { prompts: kept, excluded };
}

/** The result of a 2026 request that still asks for input (no handler answered it) is refused here. */
function completeResult(result: Fields, what: string): Fields {
  if (result['resultType'] === 'input_required') {
    throw new McpError(
      'protocol',
      `${what}: the server asked for input (input_required) and no handler of this client answered it`,
      { delivery: 'delivered' },
    );
  }
  return result;
}

export async function readResource(
  seam: RequestSeam,
  uri: string,
  options: CallOptions = {},
): Promise<ReadResourceResult> {
  if (!isString(uri) || uri === '') throw new McpError('config', 'readResource needs a resource uri');
  const what = `resources/read on ${seam.target}`;
  const result = completeResult(await seam.request('resources/read', { uri }, options), what);
  const raw = result['contents'];
  if (!Array.isArray(raw))
    throw new McpError('protocol', `${what}: the result has no contents array`, { delivery: 'delivered' });
  const { kept, excluded } = sortEntries<ResourceContents>(raw, resourceProblem, ['uri']);
  const out: ReadResourceResult = { contents: kept, excluded };
  if (isObject(result['_meta'])) out._meta = result['_meta'];
  return out;
}

function messageProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'the message is not an object';
  if (entry['role'] !== 'user' && entry['role'] !== 'assistant') return 'role is not user or assistant';
  if (!isObject(entry['content'])) return 'content is not an object';
  return undefined;
}

export async function getPrompt(
  seam: RequestSeam,
  name: string,
  args: Record<string, string> = {},
  options: CallOptions = {},
): Promise<GetPromptResult> {
  if (!isString(name) || name === '') throw new McpError('config', 'getPrompt needs a prompt name');
  if (!isObject(args) || !Object.values(args).every(isString))
    throw new McpError('config', `getPrompt ${name}: arguments must be an object of strings`);
  const what = `prompts/get ${name} on ${seam.target}`;
  const params = Object.keys(args).length === 0 ? { name } : { name, arguments: args };
  const result = completeResult(await seam.request('prompts/get', params, options), what);
  const raw = result['messages'];
  if (!Array.isArray(raw))
    throw new McpError('protocol', `${what}: the result has no messages array`, { delivery: 'delivered' });
  const { kept, excluded } = sortEntries<Fields>(raw, messageProblem, []);
  const messages = kept.map(
    (m): PromptMessage => ({
      ...m,
      role: m['role'] as PromptMessage['role'],
      content: checkContent([m['content']])[0] as ContentBlock,
    }),
  );
  const out: GetPromptResult = { messages, excluded };
  if (isString(result['description'])) out.description = result['description'];
  if (isObject(result['_meta'])) out._meta = result['_meta'];
  return out;
}
