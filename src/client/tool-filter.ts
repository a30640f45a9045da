/**
 * The `tools` filter of a server config: `allow` and `deny` lists of exact names and `*` globs. A `*`
 * matches any run of characters, none included; every other character matches itself (no `?`, no
 * classes, no escapes; case-sensitive). The matcher builds no RegExp from a pattern: a config may come
 * from a cloned repository, and a pattern is matched by anchored prefix, suffix and left-to-right
 * `indexOf` of the pieces between stars — linear in the name for each piece, no backtracking.
 */
import type { NormalizedCommon } from '../config/index.js';
import type { ToolFilterConfig } from '../config/tool-policy.js';
import { McpError } from '../errors/index.js';

/** True when `name` matches `pattern` (an exact name, or a glob with `*`). */
export function globMatch(pattern: string, name: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === name;
  const first = pieces[0] ?? '';
  const last = pieces[pieces.length - 1] ?? '';
  if (name.length < first.length + last.length) return false;
  if (!name.startsWith(first) || !name.endsWith(last)) return false;
  // The middle pieces, in order, between the prefix and the suffix: the leftmost fit of each leaves the
  // most room for the rest, so a greedy scan is exact for `*`-only globs.
  let at = first.length;
  const end = name.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] ?? '';
    if (piece === '') continue;
    const found = name.indexOf(piece, at);
    if (found === -1 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/** Why the filter leaves `name` out (`deny` first, then `allow`), or undefined when it is let through. */
export function filterReason(filter: ToolFilterConfig | undefined, name: string): string | undefined {
  if (filter === undefined) return undefined;
  if (filter.deny?.some((pattern) => globMatch(pattern, name))) return 'filtered out by tools.deny';
  if (filter.allow !== undefined && !filter.allow.some((pattern) => globMatch(pattern, name)))
    return 'not in tools.allow';
  return undefined;
}

/** The `invalid_tool` error (`not_sent`) for a call the config's filter refuses, or undefined. */
export function filterRefusal(
  config: Pick<NormalizedCommon, 'toolFilter' | 'target'>,
  name: string,
): McpError | undefined {
  const reason = filterReason(config.toolFilter, name);
  if (reason === undefined) return undefined;
  return new McpError('invalid_tool', `tool ${name} on ${config.target} was not called: ${reason}`);
}
