/**
 * Human-readable output of tools and results. Server text is data: control characters (terminal escape
 * sequences included) are neutralised before printing, so a server cannot rewrite the user's screen.
 */

import type { Tool, ToolCallOutcome } from '../client/index.js';
import { isMcpError } from '../client/index.js';
import type { PreparedResult } from '../content/index.js';

/** Removes terminal control sequences and control characters other than newline and tab. */
export function safeText(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
}

export function formatTools(
  tools: readonly Tool[],
  excluded: ReadonlyArray<{ name: string; reason: string }>,
): string {
  const lines: string[] = [];
  for (const tool of tools) {
    const params = Object.keys((tool.inputSchema['properties'] as Record<string, unknown> | undefined) ?? {});
    lines.push(`${safeText(tool.name)}(${params.map(safeText).join(', ')})`);
    const description = tool.description ? safeText(tool.description).trim() : '';
    if (description)
      lines.push(
        ...description
          .split('\n')
          .slice(0, 3)
          .map((l) => `    ${l}`),
      );
  }
  for (const item of excluded) lines.push(`(left out) ${safeText(item.name)}: ${item.reason}`);
  if (lines.length === 0) lines.push('(no tools)');
  return `${lines.join('\n')}\n`;
}

/** `image/png 1234 bytes → /tmp/autos-mcp-content-…/ab12….png`: a block whose content `prepare()` moved to a file. */
function fileLine(block: Readonly<Record<string, unknown>>, path: string): string {
  const bytes = typeof block['bytes'] === 'number' ? block['bytes'] : 0;
  const uri = block['type'] === 'resource' && typeof block['uri'] === 'string' ? block['uri'] : undefined;
  const line = `${safeText(String(block['mimeType'] ?? 'application/octet-stream'))} ${bytes} bytes → ${safeText(path)}`;
  return uri === undefined ? line : `${line} (resource ${safeText(uri)})`;
}

/**
 * A result as lines for a person. Binary content that `prepare()` moved to files (blocks with a `path`)
 * is one line per file; binary content still inline is summarised, never printed.
 */
export function formatResult(result: ToolCallOutcome | PreparedResult): string {
  if (result.resultType === 'input_required') {
    const keys = Object.keys(result.inputRequests ?? {});
    return `The server needs input before it can finish (${keys.length} request${keys.length === 1 ? '' : 's'}: ${keys.map(safeText).join(', ')}).\nRun it from code with an onElicitation handler, or use --json to see the requests.\n`;
  }
  const out: string[] = [];
  if (result.isError) out.push('Tool reported an error:');
  for (const block of result.content ?? []) {
    if (typeof block['path'] === 'string' && typeof block['sha256'] === 'string') {
      out.push(fileLine(block, block['path']));
      continue;
    }
    switch (block.type) {
      case 'text':
        out.push(safeText(String(block['text'] ?? '')));
        break;
      case 'image':
      case 'audio': {
        const bytes = typeof block['data'] === 'string' ? Math.floor((block['data'].length * 3) / 4) : 0;
        out.push(
          `[${block.type} ${safeText(String(block['mimeType'] ?? 'unknown'))}, about ${bytes} bytes; use --json for the data]`,
        );
        break;
      }
      case 'resource_link':
        out.push(`[link ${safeText(String(block['uri'] ?? ''))}]`);
        break;
      case 'resource': {
        const resource = block['resource'] as { uri?: unknown; text?: unknown } | undefined;
        out.push(`[resource ${safeText(String(resource?.uri ?? ''))}]`);
        if (typeof resource?.text === 'string') out.push(safeText(resource.text));
        break;
      }
      default:
        out.push(`[${safeText(String(block.type))} content]`);
    }
  }
  if (out.length === 0 || (out.length === 1 && result.isError)) {
    if (result.structuredContent !== undefined) out.push(JSON.stringify(result.structuredContent, null, 2));
  }
  return `${out.join('\n')}\n`;
}

export function formatError(error: unknown): string {
  if (isMcpError(error)) {
    const delivery =
      error.delivery === 'unknown'
        ? ' (it was sent; it may have run on the server)'
        : error.delivery === 'not_sent'
          ? ' (nothing was sent)'
          : '';
    const tail = error.stderrTail
      ? `\nserver stderr (last lines, redacted):\n${safeText(error.stderrTail)}`
      : '';
    return `error [${error.kind}]: ${safeText(error.message)}${delivery}${tail}\n`;
  }
  return `error: ${error instanceof Error ? safeText(error.message) : String(error)}\n`;
}
