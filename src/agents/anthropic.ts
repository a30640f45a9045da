/**
 * Anthropic Messages tools, as plain data: `{ name, description, input_schema }` definitions and the
 * `tool_result` content block that answers a `tool_use` block. Names follow `^[a-zA-Z0-9_-]{1,64}$`;
 * `input_schema` has `type: 'object'` at the top and no `anyOf`/`oneOf`/`allOf` there (see schema.ts).
 */
import { buildDefinitions, type DefinitionOptions, type ToolSource } from './definitions.js';
import type { ToolNames } from './names.js';
import type { ToolDefinitions } from './openai.js';
import { type RunToolCallOptions, runCall, type ToolCallers } from './run.js';

/** A Messages API custom tool. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

/** A `tool_use` content block from the model's message. */
export interface AnthropicToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** A content block inside a `tool_result`. */
export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

/** The `tool_result` block that answers a `tool_use` block (sent in the next user message). */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicToolResultContent[];
  is_error: boolean;
}

/** The image types a `tool_result` image block may have. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** Messages API `tools` from one server's tool list, or a record of them by server key. */
export function anthropicTools(
  source: ToolSource,
  options: DefinitionOptions = {},
): ToolDefinitions<AnthropicTool> {
  const { definitions, names, issues } = buildDefinitions(source, 'anthropic', options);
  const tools = definitions.map(
    ({ name, description, parameters }): AnthropicTool => ({
      name,
      ...(description === undefined ? {} : { description }),
      input_schema: parameters,
    }),
  );
  return { tools, names, issues };
}

/**
 * Runs a `tool_use` block through the client(s) and returns its `tool_result` block. A tool's `isError: true`
 * result is `is_error: true`; images of the four types the API takes stay images, others become text.
 */
export async function runAnthropicToolUse(
  clients: ToolCallers,
  names: ToolNames,
  block: AnthropicToolUse,
  options: RunToolCallOptions = {},
): Promise<AnthropicToolResult> {
  const result = await runCall(clients, names, block.name, block.input, options);
  const content = result.parts.map((part): AnthropicToolResultContent => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (IMAGE_TYPES.has(part.mimeType)) {
      return { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } };
    }
    return {
      type: 'text',
      text: `[an image (${part.mimeType}) the tool returned, in a type the API does not take]`,
    };
  });
  return { type: 'tool_result', tool_use_id: block.id, content, is_error: result.isError };
}
