/**
 * `autos-mcp/tools`: MCP tools as plain-data tool definitions for model APIs (OpenAI Chat Completions and
 * Responses, Anthropic Messages), with the reverse map of names and a runner for the model's tool calls.
 * No framework is imported here; the Vercel AI SDK adapter is `autos-mcp/ai`. Descriptions in the
 * definitions are the servers' text, handed to a model: pin the tools you approved (docs/client.md).
 */
export {
  type AnthropicTool,
  type AnthropicToolResult,
  type AnthropicToolResultContent,
  type AnthropicToolUse,
  anthropicTools,
  runAnthropicToolUse,
} from './anthropic.js';
export { collectTools, type ToolLister } from './collect.js';
export type { DefinitionOptions, ToolIssue, ToolSource } from './definitions.js';
export {
  NAMESPACE_SEPARATOR,
  resolveToolName,
  TOOL_NAME_RULE,
  type ToolNames,
  type ToolTarget,
} from './names.js';
export {
  type OpenAIChatTool,
  type OpenAIChatToolCall,
  type OpenAIFunctionCallOutput,
  type OpenAIResponsesFunctionCall,
  type OpenAIResponsesTool,
  type OpenAIToolMessage,
  type OpenAIToolsOptions,
  openaiChatTools,
  openaiResponsesTools,
  runOpenAIChatToolCall,
  runOpenAIResponsesToolCall,
  type ToolDefinitions,
} from './openai.js';
export type { RunToolCallOptions, ToolCaller, ToolCallers } from './run.js';
export { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, type SchemaIssue } from './schema.js';
