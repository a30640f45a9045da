/**
 * Approvals in a catalog. The catalog's `tools.approve` globs name refs (`server.tool`); each becomes the
 * tool glob of the servers its server part names, added to that server's own `tools.approve`, so the
 * client decides every approval by one rule (docs/client.md#approvals), whether the call comes from the
 * catalog, the sandbox or a direct client. `onApprove` is asked with the server's catalog name.
 */
import type { ApprovalHandler } from '../client/approval.js';
import type { ConnectOptions } from '../client/options.js';
import { globMatch } from '../client/tool-filter.js';
import type { ServerConfig } from '../config/index.js';
import { McpError } from '../errors/index.js';

/** Each ref glob split into its server part and its tool part; a glob without a dot is refused. */
export function approvalGlobs(
  patterns: readonly string[] | undefined,
): ReadonlyArray<{ server: string; tool: string }> {
  return (patterns ?? []).map((pattern) => {
    const dot = pattern.indexOf('.');
    if (dot <= 0 || dot === pattern.length - 1)
      throw new McpError(
        'config',
        'invalid catalog option tools.approve: each entry is server.tool (globs allowed in both parts, e.g. memory.* or *.delete_*)',
      );
    return { server: pattern.slice(0, dot), tool: pattern.slice(dot + 1) };
  });
}

/** `config` with the tool globs of `globs` that name `server` added to its own `tools.approve`. */
export function withApprovals(
  config: ServerConfig,
  server: string,
  globs: ReadonlyArray<{ server: string; tool: string }>,
): ServerConfig {
  const added = globs.filter((glob) => globMatch(glob.server, server)).map((glob) => glob.tool);
  if (added.length === 0) return config;
  const tools = config.tools ?? {};
  return { ...config, tools: { ...tools, approve: [...(tools.approve ?? []), ...added] } };
}

/** The connection options of `server`, whose approval handler (its own, else the catalog's) is told the server's name. */
export function withApprover(
  connect: ConnectOptions,
  server: string,
  fallback: ApprovalHandler | undefined,
): ConnectOptions {
  const handler = connect.onApprove ?? fallback;
  if (handler === undefined) return connect;
  return { ...connect, onApprove: (request) => handler({ ...request, server }) };
}
