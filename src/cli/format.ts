/**
 * Human-readable output of tools, results, errors and discovery facts. Server text is data: every string
 * a server controls goes through the one sanitizer (`terminal-text.ts`) before it is printed, so a server
 * cannot rewrite the user's screen.
 */

import type { DiscoverResult, Tool, ToolCallOutcome } from '../client/index.js';
import { isMcpError } from '../client/index.js';
import type { PreparedResult } from '../content/index.js';
import { safeText, terminalText } from '../internal/terminal-text.js';

export { safeText } from '../internal/terminal-text.js';

/** A name, a MIME type, a URI: one line, a few hundred characters at most. */
function field(text: string, max = 500): string {
  return terminalText(text, { oneLine: true, max });
}

export function formatTools(
  tools: readonly Tool[],
  excluded: ReadonlyArray<{ name: string; reason: string }>,
): string {
  const lines: string[] = [];
  for (const tool of tools) {
    const params = Object.keys((tool.inputSchema['properties'] as Record<string, unknown> | undefined) ?? {});
    lines.push(`${field(tool.name)}(${params.map((p) => field(p)).join(', ')})`);
    const description = tool.description ? terminalText(tool.description, { max: 4000 }).trim() : '';
    if (description)
      lines.push(
        ...description
          .split('\n')
          .slice(0, 3)
          .map((l) => `    ${l}`),
      );
  }
  for (const item of excluded) lines.push(`(left out) ${field(item.name)}: ${safeText(item.reason)}`);
  if (lines.length === 0) lines.push('(no tools)');
  return `${lines.join('\n')}\n`;
}

/** `image/png 1234 bytes → /tmp/autos-mcp-content-…/ab12….png`: a block whose content `prepare()` moved to a file. */
function fileLine(block: Readonly<Record<string, unknown>>, path: string): string {
  const bytes = typeof block['bytes'] === 'number' ? block['bytes'] : 0;
  const uri = block['type'] === 'resource' && typeof block['uri'] === 'string' ? block['uri'] : undefined;
  const line = `${field(String(block['mimeType'] ?? 'application/octet-stream'))} ${bytes} bytes → ${field(path, 4096)}`;
  return uri === undefined ? line : `${line} (resource ${field(uri, 4096)})`;
}

/**
 * A result as lines for a person. Binary content that `prepare()` moved to files (blocks with a `path`)
 * is one line per file; binary content still inline is summarised, never printed.
 */
export function formatResult(result: ToolCallOutcome | PreparedResult): string {
  if (result.resultType === 'input_required') {
    const keys = Object.keys(result.inputRequests ?? {});
    return `The server needs input before it can finish (${keys.length} request${keys.length === 1 ? '' : 's'}: ${keys.map((k) => field(k)).join(', ')}).\nRun it from code with an onElicitation handler, or use --json to see the requests.\n`;
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
          `[${block.type} ${field(String(block['mimeType'] ?? 'unknown'))}, about ${bytes} bytes; use --json for the data]`,
        );
        break;
      }
      case 'resource_link':
        out.push(`[link ${field(String(block['uri'] ?? ''), 4096)}]`);
        break;
      case 'resource': {
        const resource = block['resource'] as { uri?: unknown; text?: unknown } | undefined;
        out.push(`[resource ${field(String(resource?.uri ?? ''), 4096)}]`);
        if (typeof resource?.text === 'string') out.push(safeText(resource.text));
        break;
      }
      default:
        out.push(`[${field(String(block.type))} content]`);
    }
  }
  if (out.length === 0 || (out.length === 1 && result.isError)) {
    if (result.structuredContent !== undefined)
      out.push(safeText(JSON.stringify(result.structuredContent, null, 2)));
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
  return `error: ${safeText(error instanceof Error ? error.message : String(error))}\n`;
}

/** The facts `discover` prints: version, server info, supported versions, capabilities, instructions. */
export function formatDiscover(
  facts: DiscoverResult & { protocolVersion: string; transport: string },
): string {
  const info = facts.serverInfo;
  const lines = [
    `protocol version: ${field(facts.protocolVersion)} (${field(facts.transport)}; facts from ${field(facts.source)})`,
    `server: ${info ? `${field(String(info.name))} ${field(String(info.version))}` : '(not reported)'}`,
    `supported versions: ${facts.supportedVersions.map((v) => field(String(v))).join(', ') || '(not reported)'}`,
    `capabilities: ${
      Object.keys(facts.capabilities)
        .map((k) => field(k))
        .join(', ') || '(none)'
    }`,
  ];
  if (facts.instructions)
    lines.push(
      'instructions (data from the server):',
      ...terminalText(String(facts.instructions), { max: 100_000 })
        .split('\n')
        .map((l) => `    ${l}`),
    );
  return `${lines.join('\n')}\n`;
}
