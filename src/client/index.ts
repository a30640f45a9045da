/**
 * The client module's entry: connect to MCP servers and use their tools. Everything a caller (or the
 * CLI) needs comes from here: the config types, the errors, the results. The connection contract for
 * plugging in a transport of your own is `autos-mcp/transport` (src/transport/index.ts).
 */
export type {
  BaseServerConfig,
  ClientInfo,
  HttpServerConfig,
  ServerConfig,
  StdioServerConfig,
} from '../config/index.js';
export type {
  ToolFilterConfig,
  ToolPart,
  ToolPinObject,
  ToolPinsConfig,
} from '../config/tool-policy.js';
export { isMcpError, McpError } from '../errors/index.js';
export type {
  ExcludedSkill,
  ReadSkillResult,
  Skill,
  SkillFile,
  SkillFrontmatter,
  SkillList,
  SkillProblem,
  WrittenSkillFile,
} from '../extensions/skills/index.js';
export { isAppOnly, toolVisibility, uiResourceUri } from '../protocol/apps-ui.js';
export { callToolOnce, connect, withClient } from './api.js';
export type { ApprovalHandler, ApprovalRequest } from './approval.js';
export type { CallOptions, CallToolOptions, ListToolsOptions, Progress } from './call-options.js';
export { Client, type CloseReport } from './client.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  EmbeddedResource,
  Icon,
  ImageContent,
  ResourceLink,
  Role,
  TextContent,
  TextResourceContents,
  UnknownContent,
} from './content-blocks.js';
export type { McpClient } from './mcp-client.js';
export type { ConnectOptions, HandlerContext } from './options.js';
export type { ResourceMethods } from './resource-methods.js';
export type {
  ExcludedEntry,
  GetPromptResult,
  ListOptions,
  Prompt,
  PromptArgument,
  PromptList,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceList,
  ResourceTemplate,
  ResourceTemplateList,
} from './resource-types.js';
export type { ReadSkillOptions } from './skills.js';
export type { ToolsChangedEvent, ToolsChangedListener } from './tool-changes.js';
export { toolDigest } from './tool-digest.js';
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
  type LegacyVersion,
  type ResultTruncation,
  type ServerLogEntry,
  type Tool,
  type ToolAnnotations,
  type ToolCallOutcome,
  type ToolDigest,
  type ToolDrift,
  type ToolList,
} from './types.js';
