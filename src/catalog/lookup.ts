/**
 * The errors of a ref that names nothing callable, each `invalid_tool` (or `tool_changed` for a pinned
 * tool that drifted, as a call of it is refused today) with `delivery: 'not_sent'` and what to try
 * instead: the closest server names, the server's closest tool names, or the servers that do have a tool
 * of that name. Every name quoted is cut and made one line.
 */
import type { ExcludedTool } from '../client/types.js';
import { McpError } from '../errors/index.js';
import { terminalText } from '../internal/terminal-text.js';
import { closestNames, unknownToolHint } from '../internal/tool-names.js';

/** A name from a caller or a server, as shown in a message: one line, at most 120 characters. */
export function shown(name: string): string {
  const line = terminalText(name.slice(0, 480), { oneLine: true });
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** `shown(name)` in quotes. */
export function quoted(name: string): string {
  return JSON.stringify(shown(name));
}

function invalid(message: string): McpError {
  return new McpError('invalid_tool', message, { delivery: 'not_sent' });
}

/** A ref without `server.` (a bare tool name): the refs that end with it, if any. */
export function notARef(ref: unknown, sameName: readonly string[]): McpError {
  if (typeof ref !== 'string' || ref === '') return invalid('a tool ref is a non-empty string server.tool');
  const hint = sameName.length > 0 ? `: did you mean ${sameName.slice(0, 5).map(shown).join(', ')}?` : '';
  return invalid(`${quoted(ref)} is not a tool ref: a ref is server.tool${hint}`);
}

/** `server` is not one of the catalog's. */
export function unknownServer(server: string, servers: readonly string[]): McpError {
  const close = closestNames(server, servers);
  const known =
    servers.length === 0
      ? 'the catalog has no servers'
      : `its servers: ${servers.slice(0, 20).map(shown).join(', ')}${servers.length > 20 ? ', …' : ''}`;
  const guess = close.length > 0 ? `did you mean ${close.map(shown).join(', ')}? ` : '';
  return invalid(`the catalog has no server ${quoted(server)}: ${guess}(${known})`);
}

/** `ref` is left out by the catalog's own `tools` filter. */
export function notOffered(ref: string, reason: string): McpError {
  return invalid(
    `${quoted(ref)} is not offered by this catalog: ${reason.replace('tools.', 'the catalog tools.')}`,
  );
}

/**
 * `tool` is not a usable tool of `server`: excluded from its list (then the reason, and `tool_changed` for
 * a drifted pin), or not listed at all (the closest names, and the servers that have a tool of that name).
 */
export function unlisted(
  server: string,
  tool: string,
  excluded: ExcludedTool | undefined,
  names: readonly string[],
  elsewhere: readonly string[],
): McpError {
  const ref = quoted(`${server}.${tool}`);
  if (excluded !== undefined) {
    const message = `${ref} is not offered: ${excluded.reason}`;
    return excluded.drift === undefined
      ? invalid(message)
      : new McpError('tool_changed', message, { delivery: 'not_sent' });
  }
  const also =
    elsewhere.length > 0 ? `; a tool of that name is on: ${elsewhere.slice(0, 5).map(shown).join(', ')}` : '';
  return invalid(`${shown(server)} has no tool ${quoted(tool)}: ${unknownToolHint(tool, names)}${also}`);
}
