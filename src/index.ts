/**
 * autos-mcp: call the tools of MCP servers on demand, safely. Importing starts nothing.
 * Read docs/index.md first.
 */
export {
  type CallOptions,
  type CallToolResult,
  Client,
  type ClientInfo,
  type ConnectOptions,
  type ContentBlock,
  callTool,
  clearEraCache,
  connect,
  type DiscoverResult,
  type ElicitationRequest,
  type ElicitResult,
  type ExcludedTool,
  type HandlerContext,
  type HttpServerConfig,
  type Implementation,
  type InputRequest,
  type InputRequiredResult,
  isInputRequired,
  type ListToolsOptions,
  type NormalizedConfig,
  normalizeConfig,
  type Progress,
  type ServerConfig,
  type ServerLogEntry,
  type StdioServerConfig,
  type Tool,
  type ToolCallOutcome,
  type ToolList,
  withClient,
} from './client/index.js';
export {
  type AuthChallenge,
  type Delivery,
  type ErrorKind,
  isErrorKind,
  isMcpError,
  isRpcError,
  McpError,
  RpcError,
  UnsupportedProtocolVersionError,
} from './errors/index.js';
export type { ProtocolVersion, ProtocolVersionChoice } from './protocol/versions.js';
export type { CloseOptions, CloseReport } from './transport/connection.js';
