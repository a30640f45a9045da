/**
 * Running a model's tool call: the name the model used is looked up in the map that went with the
 * definitions (never guessed), the arguments are checked to be a JSON object, and the call goes through
 * the server's client, so the config's `tools` filter and `pin`s apply to it. The result is rendered once,
 * neutrally (text parts and images), and each format gives it its API's shape.
 */
import type { CallOptions, CallToolResult, ContentBlock, McpClient } from '../client/index.js';
import { isInputRequired } from '../client/index.js';
import { isMcpError, McpError } from '../errors/index.js';
import { resolveToolName, type ToolNames } from './names.js';

/** What runs a tool: an `McpClient` (a `Client`, a `Session`), or anything with the same `callTool`. */
export type ToolCaller = Pick<McpClient, 'callTool'>;

/** The caller for a single server's tools, or a record of them by the same keys as the tool source. */
export type ToolCallers = ToolCaller | Readonly<Record<string, ToolCaller>>;

/** Options of the `run…ToolCall` functions. */
export interface RunToolCallOptions extends CallOptions {
  /**
   * Return a failure to call the tool (an unknown name, arguments that are not a JSON object, a timeout, a
   * refused call) as an error result for the model, with the error's message, instead of throwing it.
   * Default false: it is thrown as an `McpError`.
   */
  errorsAsResults?: boolean;
}

/** One part of a rendered result. */
export type ResultPart = { type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string };

/** A tool result rendered for a model: its parts and whether it is an error. */
export interface RenderedResult {
  parts: ResultPart[];
  isError: boolean;
}

/**
 * Calls the tool a model named (`name`, with `args` as the model sent them: an object, or a JSON string)
 * and renders its result. Throws `McpError` for what is not the tool's own result, unless `errorsAsResults`.
 */
export async function runCall(
  callers: ToolCallers,
  names: ToolNames,
  name: unknown,
  args: unknown,
  options: RunToolCallOptions = {},
): Promise<RenderedResult> {
  const { errorsAsResults, ...callOptions } = options;
  try {
    const target = resolveToolName(names, name);
    const caller = callerFor(callers, target.server);
    const result = await caller.callTool(target.tool, argumentsOf(args, target.tool), callOptions);
    if (isInputRequired(result)) {
      return errorResult(
        `the tool ${target.tool} asked for input (input_required) that no handler answered; it did not complete`,
      );
    }
    return render(result);
  } catch (error) {
    if (errorsAsResults === true && isMcpError(error)) return errorResult(error.message);
    throw error;
  }
}

function callerFor(callers: ToolCallers, server: string | undefined): ToolCaller {
  const single = typeof (callers as Partial<ToolCaller>).callTool === 'function';
  if (server === undefined) {
    if (single) return callers as ToolCaller;
    throw new McpError('config', 'the tool names are for a single server, but a record of clients was given');
  }
  if (single)
    throw new McpError(
      'config',
      `the tool names are namespaced by server (${server}), but one client was given`,
    );
  const record = callers as Readonly<Record<string, ToolCaller>>;
  const caller = Object.hasOwn(record, server) ? record[server] : undefined;
  if (caller === undefined || typeof caller.callTool !== 'function') {
    throw new McpError(
      'config',
      `no client was given for the server key ${JSON.stringify(server.slice(0, 80))}`,
    );
  }
  return caller;
}

function argumentsOf(args: unknown, tool: string): Record<string, unknown> {
  let value = args;
  if (value === undefined || value === null || value === '') return {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new McpError(
        'config',
        `the model's arguments for the tool ${tool} are not valid JSON; it was not called`,
      );
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new McpError(
      'config',
      `the model's arguments for the tool ${tool} are not a JSON object; it was not called`,
    );
  }
  return value as Record<string, unknown>;
}

function errorResult(text: string): RenderedResult {
  return { parts: [{ type: 'text', text }], isError: true };
}

/**
 * MCP content as text parts and images. Text and embedded text resources are their text; images keep
 * their data (a format that cannot carry them says so in text); other blocks are their JSON, with any
 * base64 payload replaced by its size, so binary data never floods a model's context. A result with only
 * `structuredContent` is its JSON.
 */
export function render(result: CallToolResult): RenderedResult {
  const parts: ResultPart[] = [];
  const content: readonly ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  for (const block of content) {
    const part = renderBlock(block);
    if (part !== undefined) parts.push(part);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  return { parts, isError: result.isError === true };
}

function renderBlock(block: ContentBlock): ResultPart | undefined {
  if (block.type === 'text' && typeof block['text'] === 'string') {
    return block['text'] === '' ? undefined : { type: 'text', text: block['text'] };
  }
  if (block.type === 'image' && typeof block['data'] === 'string' && typeof block['mimeType'] === 'string') {
    return { type: 'image', mimeType: block['mimeType'], data: block['data'] };
  }
  const resource = block['resource'];
  if (block.type === 'resource' && typeof resource === 'object' && resource !== null) {
    const text = (resource as Record<string, unknown>)['text'];
    if (typeof text === 'string') return { type: 'text', text };
  }
  return { type: 'text', text: JSON.stringify(withoutPayloads(block)) };
}

function withoutPayloads(block: ContentBlock): unknown {
  const shrink = (value: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if ((key === 'data' || key === 'blob') && typeof v === 'string') {
        Object.defineProperty(out, key, {
          value: `[${Math.floor((v.length * 3) / 4)} bytes of base64 not shown]`,
          enumerable: true,
        });
      } else if (key === 'resource' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        out[key] = shrink(v as Record<string, unknown>);
      } else {
        Object.defineProperty(out, key, { value: v, enumerable: true });
      }
    }
    return out;
  };
  return shrink(block);
}

/** The text of rendered parts, for formats whose tool results are one string. */
export function asText(result: RenderedResult): string {
  const text = result.parts
    .map((part) =>
      part.type === 'text' ? part.text : `[an image (${part.mimeType}) the tool returned, not shown]`,
    )
    .join('\n');
  return result.isError ? `Error: ${text}` : text;
}
