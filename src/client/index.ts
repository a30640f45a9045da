/** The client module's entry: connect to MCP servers and use their tools. */
export { callTool, connect, withClient } from './api.js';
export { Client, type ListToolsOptions } from './client.js';
export {
  type ClientInfo,
  type HttpServerConfig,
  type NormalizedConfig,
  normalizeConfig,
  type ServerConfig,
  type StdioServerConfig,
} from './config.js';
export type { CallOptions, Progress } from './engine.js';
export { clearEraCache } from './lifecycle.js';
export type { ConnectOptions, HandlerContext } from './options.js';
export {
  type CallToolResult,
  type ContentBlock,
  type DiscoverResult,
  type ElicitationRequest,
  type ElicitResult,
  type ExcludedTool,
  type Implementation,
  type InputRequest,
  type InputRequiredResult,
  isInputRequired,
  type ServerLogEntry,
  type Tool,
  type ToolCallOutcome,
  type ToolList,
} from './types.js';
