/**
 * What a tool call checks before anything of it is sent, and how a call that never left is worded: a tool
 * the last list left out (filtered, drifted from its pin) is refused, arguments are checked against the
 * listed schema when asked, and a failed or cancelled implicit `tools/list` is the call's own `not_sent`.
 */
import { McpError } from '../errors/index.js';
import type { ToolCatalog } from './catalog.js';
import { notSent } from './not-sent.js';
import { unlistedToolHint } from './unknown-tool.js';

/**
 * Throws when `name` may not be called as the catalog stands: `tool_changed` for a tool that drifted from
 * its pin (named with the parts that changed, as data too, never their text), `invalid_tool` for one left
 * out, or with `validate` for one the server does not list; with `validate`, `invalid_arguments` from the
 * schema check (the validator is loaded on first use: the default import parses nothing).
 */
export async function checkBeforeSending(
  catalog: ToolCatalog,
  target: string,
  name: string,
  args: Record<string, unknown>,
  validate: boolean,
): Promise<void> {
  const excluded = catalog.excluded(name);
  if (excluded !== undefined) {
    const message = `tool ${name} on ${target} was not called: ${excluded.reason}`;
    if (excluded.drift !== undefined)
      throw new McpError('tool_changed', message, { data: { tool: name, ...excluded.drift } });
    throw new McpError('invalid_tool', message);
  }
  if (!validate) return;
  const tool = catalog.tool(name);
  if (tool === undefined) {
    const names = catalog.names();
    const why = `the server does not list it, so its arguments cannot be checked${names === undefined ? '' : `; ${unlistedToolHint(name, names)}`}`;
    throw new McpError('invalid_tool', `tool ${name} on ${target} was not called: ${why}`, {
      data: { tool: name },
    });
  }
  const { checkArguments } = await import('./arguments.js');
  await checkArguments(tool, args, target);
}

/**
 * The error of a call whose implicit `tools/list` failed (or whose caller gave up while it ran): named as
 * the call the caller asked for, never as the list it waited on, and `not_sent`.
 */
export function listFirstFailure(name: string, target: string, error: unknown, aborted: boolean): McpError {
  if (aborted) {
    return new McpError(
      'cancelled',
      `tools/call ${name} on ${target}: cancelled by the caller while the tools/list it needs first was running`,
      { delivery: 'not_sent', cause: error, target },
    );
  }
  return notSent(`tools/call ${name}`, 'the tools/list it needs first failed', error, target);
}
