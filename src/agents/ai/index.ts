/**
 * `autos-mcp/ai`: MCP tools as Vercel AI SDK tools (`ai` is an optional peer dependency, imported only
 * here). Each tool is a `dynamicTool` whose `execute` goes through the server's client, so a config's
 * `tools` filter and `pin`s apply; its result goes back to the model as text and images, `isError` as an
 * error. Names and schemas are converted as for OpenAI (see `autos-mcp/tools`), which other providers accept.
 */
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import type { CallOptions, CallToolResult, ListToolsOptions } from '../../client/index.js';
import { McpError } from '../../errors/index.js';
import { collectTools, type ToolLister } from '../collect.js';
import { buildDefinitions, type DefinitionOptions, type ToolIssue } from '../definitions.js';
import type { ToolNames } from '../names.js';
import { render, type ToolCaller } from '../run.js';

/** A client as the adapter uses it: it lists tools and calls them (an `McpClient`: `Client`, `Session`). */
export type AiToolClient = ToolLister & ToolCaller;

/** Options of `aiTools`. */
export interface AiToolsOptions extends DefinitionOptions {
  /** Options for the `listTools()` calls. */
  list?: ListToolsOptions;
  /** Options for every tool call (`timeoutMs`, …); the AI SDK's abort signal is added to them. */
  call?: CallOptions;
}

/** The AI SDK tools, the reverse map of names, and what was changed or left out. */
export interface AiTools {
  /** Pass as `tools` to `generateText` / `streamText`. Descriptions are the servers' text. */
  tools: ToolSet;
  names: ToolNames;
  issues: ToolIssue[];
}

/**
 * Lists the tools of one client, or of each client in a record by server key (names then `key__tool`),
 * and returns them as AI SDK tools that call through those clients. A tool's output is its
 * `CallToolResult`, as the server sent it.
 */
export async function aiTools(
  clients: AiToolClient | Readonly<Record<string, AiToolClient>>,
  options: AiToolsOptions = {},
): Promise<AiTools> {
  const source = await collectTools(clients, options.list);
  const { definitions, names, issues } = buildDefinitions(source, 'openai', options);
  const single = typeof (clients as Partial<AiToolClient>).callTool === 'function';
  const tools: ToolSet = {};
  for (const definition of definitions) {
    const target = names[definition.name] as { server?: string; tool: string };
    const client = single
      ? (clients as AiToolClient)
      : (clients as Readonly<Record<string, AiToolClient>>)[target.server ?? ''];
    if (client === undefined) continue;
    const tool = dynamicTool({
      ...(definition.description === undefined ? {} : { description: definition.description }),
      inputSchema: jsonSchema(definition.parameters as Parameters<typeof jsonSchema>[0]),
      execute: async (input, { abortSignal }) => {
        if (typeof input !== 'object' || input === null || Array.isArray(input)) {
          throw new McpError(
            'config',
            `the model's arguments for the tool ${target.tool} are not a JSON object; it was not called`,
          );
        }
        const callOptions: CallOptions =
          abortSignal === undefined ? { ...options.call } : { ...options.call, signal: abortSignal };
        return client.callTool(target.tool, input as Record<string, unknown>, callOptions);
      },
      toModelOutput: ({ output }) => modelOutput(output),
    });
    Object.defineProperty(tools, definition.name, {
      value: tool,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { tools, names, issues };
}

/** The AI SDK's tool output for the model (its type is not exported from `ai` itself). */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Parameters<typeof dynamicTool>[0]['toModelOutput']>>>;

/** A tool's outcome as the model sees it: text and images; `isError` or `input_required` as an error. */
function modelOutput(output: unknown): ToolResultOutput {
  const outcome = output as CallToolResult | { resultType?: unknown };
  if ((outcome as { resultType?: unknown }).resultType === 'input_required') {
    return {
      type: 'error-text',
      value: 'the tool asked for input (input_required) that no handler answered; it did not complete',
    };
  }
  const rendered = render(outcome as CallToolResult);
  if (rendered.isError) {
    const text = rendered.parts
      .map((p) => (p.type === 'text' ? p.text : `[an image (${p.mimeType})]`))
      .join('\n');
    return { type: 'error-text', value: text };
  }
  if (rendered.parts.length === 0) return { type: 'text', value: '' };
  return {
    type: 'content',
    value: rendered.parts.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'image-data' as const, data: part.data, mediaType: part.mimeType },
    ),
  };
}
