/**
 * autos-mcp: call the tools of MCP servers on demand, safely. Importing starts nothing.
 * Read docs/index.md first. This entry holds what a caller of tools needs; transport and test authors
 * import `autos-mcp/transport`, observers `autos-mcp/diagnostics` (test/package checks the list).
 */
export {
  type ApprovalHandler,
  type ApprovalRequest,
  type AudioContent,
  type CallOptions,
  type CallToolOptions,
  type CallToolResult,
  Client,
  type CloseReport,
  type ConnectOptions,
  type ContentBlock,
  callToolOnce,
  connect,
  type DiscoverResult,
  type ElicitationRequest,
  type ElicitResult,
  type EmbeddedResource,
  type ExcludedTool,
  type HandlerContext,
  type ImageContent,
  type Implementation,
  type InputRequest,
  type InputRequiredResult,
  isAppOnly,
  isInputRequired,
  type ListToolsOptions,
  type McpClient,
  type Progress,
  type ResourceLink,
  type ResultTruncation,
  type ServerLogEntry,
  type TextContent,
  type Tool,
  type ToolAnnotations,
  type ToolCallOutcome,
  type ToolDigest,
  type ToolDrift,
  type ToolList,
  toolDigest,
  toolVisibility,
  type UnknownContent,
  uiResourceUri,
  withClient,
} from './client/index.js';
export type {
  BaseServerConfig,
  HttpServerConfig,
  ServerConfig,
  StdioServerConfig,
} from './config/index.js';
export { structuredOf, textOf } from './content/results.js';
export {
  type AnyMcpError,
  type AuthChallenge,
  type Delivery,
  ERROR_KINDS,
  type ErrorKind,
  isErrorKind,
  isMcpError,
  McpError,
  type McpErrorData,
  type McpErrorOptions,
} from './errors/index.js';
export type { ProtocolVersion, ProtocolVersionChoice } from './protocol/versions.js';
export {
  type ConfigResolver,
  Session,
  type SessionOptions,
  session,
} from './session/session.js';
