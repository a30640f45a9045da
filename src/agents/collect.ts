/**
 * The tool source from live clients: `listTools()` of one client, or of each client in a record (one after
 * another, in the record's order). Going through the client is what applies a config's `tools` filter and
 * `pin`s: a tool left out or drifted is not in the list, and a call to it is refused.
 */
import type { ListToolsOptions, McpClient, Tool } from '../client/index.js';
import type { ToolSource } from './definitions.js';

/** What lists tools: an `McpClient` (a `Client`, a `Session`), or anything with the same `listTools`. */
export type ToolLister = Pick<McpClient, 'listTools'>;

/** Lists the tools of one client, or of each client in a record by server key, as a `ToolSource`. */
export async function collectTools(
  clients: ToolLister | Readonly<Record<string, ToolLister>>,
  options: ListToolsOptions = {},
): Promise<ToolSource> {
  if (typeof (clients as Partial<ToolLister>).listTools === 'function') {
    return (clients as ToolLister).listTools(options);
  }
  const source: Record<string, Tool[]> = {};
  for (const [key, client] of Object.entries(clients as Readonly<Record<string, ToolLister>>)) {
    Object.defineProperty(source, key, { value: await client.listTools(options), enumerable: true });
  }
  return source;
}
