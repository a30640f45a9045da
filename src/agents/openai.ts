/**
 * OpenAI function tools, as plain data: the Chat Completions shape (`{ type: 'function', function: { name,
 * description, parameters, strict } }`) and the Responses shape (`{ type: 'function', name, … }`), and the
 * tool-result message for each (`{ role: 'tool', tool_call_id, content }`, `{ type: 'function_call_output',
 * call_id, output }`). Names follow `^[a-zA-Z0-9_-]{1,64}$`; schemas follow OpenAI's rules (see schema.ts).
 */
import { buildDefinitions, type DefinitionOptions, type ToolIssue, type ToolSource } from './definitions.js';
import type { ToolNames } from './names.js';
import { asText, type RunToolCallOptions, runCall, type ToolCallers } from './run.js';

/** Options of `openaiChatTools` and `openaiResponsesTools`. */
export interface OpenAIToolsOptions extends DefinitionOptions {
  /**
   * Ask for strict mode (Structured Outputs): each tool whose schema fits its rules without losing a
   * constraint is sent with `strict: true`; the others with `strict: false` and a `not_strict` issue each.
   * Default false.
   */
  strict?: boolean;
}

/** A Chat Completions function tool. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict: boolean };
}

/** A Responses API function tool. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** Definitions for one API, with the reverse map of names and what was changed or left out. */
export interface ToolDefinitions<T> {
  /** The `tools` array to send. Descriptions are the servers' text: see docs/typescript.md. */
  tools: T[];
  /** The name the model sees → server and tool. Keep it with the definitions; `run…` functions need it. */
  names: ToolNames;
  /** What was loosened, cut, left out or could not be strict, per tool. */
  issues: ToolIssue[];
}

/** A Chat Completions tool call (`choices[0].message.tool_calls[i]`). */
export interface OpenAIChatToolCall {
  id: string;
  type?: 'function';
  function: { name: string; arguments: string };
}

/** The Chat Completions message that answers a tool call. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** A Responses API function call output item (`response.output[i]` with `type: 'function_call'`). */
export interface OpenAIResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** The Responses API input item that answers a function call. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** Chat Completions `tools` from one server's tool list, or a record of them by server key. */
export function openaiChatTools(
  source: ToolSource,
  options: OpenAIToolsOptions = {},
): ToolDefinitions<OpenAIChatTool> {
  const { definitions, names, issues } = buildDefinitions(source, 'openai', options);
  const tools = definitions.map(
    ({ name, description, parameters, strict }): OpenAIChatTool => ({
      type: 'function',
      function: { name, ...(description === undefined ? {} : { description }), parameters, strict },
    }),
  );
  return { tools, names, issues };
}

/** Responses API `tools` from one server's tool list, or a record of them by server key. */
export function openaiResponsesTools(
  source: ToolSource,
  options: OpenAIToolsOptions = {},
): ToolDefinitions<OpenAIResponsesTool> {
  const { definitions, names, issues } = buildDefinitions(source, 'openai', options);
  const tools = definitions.map(
    ({ name, description, parameters, strict }): OpenAIResponsesTool => ({
      type: 'function',
      name,
      ...(description === undefined ? {} : { description }),
      parameters,
      strict,
    }),
  );
  return { tools, names, issues };
}

/**
 * Runs a Chat Completions tool call through the client(s) and returns the `role: 'tool'` message for it.
 * A tool's `isError: true` result becomes content that starts with `Error: ` (the API has no error flag).
 */
export async function runOpenAIChatToolCall(
  clients: ToolCallers,
  names: ToolNames,
  call: OpenAIChatToolCall,
  options: RunToolCallOptions = {},
): Promise<OpenAIToolMessage> {
  const result = await runCall(clients, names, call.function?.name, call.function?.arguments, options);
  return { role: 'tool', tool_call_id: call.id, content: asText(result) };
}

/** Runs a Responses API function call through the client(s) and returns its `function_call_output` item. */
export async function runOpenAIResponsesToolCall(
  clients: ToolCallers,
  names: ToolNames,
  call: OpenAIResponsesFunctionCall,
  options: RunToolCallOptions = {},
): Promise<OpenAIFunctionCallOutput> {
  const result = await runCall(clients, names, call.name, call.arguments, options);
  return { type: 'function_call_output', call_id: call.call_id, output: asText(result) };
}
