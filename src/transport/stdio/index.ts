/**
 * The stdio transport: an MCP server as a child process speaking one JSON message per line
 * (S25/basic/transports, S26/basic/transports/stdio). This file is the module's only entry.
 */
export { StdioConnection } from './connection.js';
export { buildChildEnv } from './env.js';
export { endProcessGroup, killProcessGroup } from './process-group.js';
export { buildWindowsCommandLine, resolveWindowsCommand, type WindowsSpawnPlan } from './windows.js';
