/**
 * Resources and prompts as lines for a person (`resources`, `read`, `prompts`, `prompt`). Every string a
 * server controls goes through the one sanitizer (`terminal-text.ts`); binary contents are written to
 * private files by `autos-mcp/content` (one line each: type, size, path), never printed.
 */
import type {
  CallToolResult,
  ContentBlock,
  ExcludedEntry,
  GetPromptResult,
  PromptList,
  ReadResourceResult,
  ResourceList,
  ResourceTemplateList,
} from '../client/index.js';
import type { PreparedResult } from '../content/index.js';
import { terminalText } from '../internal/terminal-text.js';
import { formatError, formatResult } from './format.js';
import type { CliIo } from './io.js';

const field = (text: string, max = 500): string => terminalText(text, { oneLine: true, max });

function described(head: string, description: string | undefined): string[] {
  const text = description ? terminalText(description, { max: 4000 }).trim() : '';
  return [
    head,
    ...text
      .split('\n')
      .filter((l) => l !== '')
      .slice(0, 3)
      .map((l) => `    ${l}`),
  ];
}

function leftOut(excluded: readonly ExcludedEntry[]): string[] {
  return excluded.map((item) => `(left out) ${field(item.name)}: ${field(item.reason)}`);
}

export function formatResources(list: ResourceList, templates: ResourceTemplateList): string {
  const lines: string[] = [];
  for (const r of list.resources) {
    const mime = r.mimeType === undefined ? '' : `  ${field(r.mimeType, 100)}`;
    lines.push(...described(`${field(r.uri, 4096)}  ${field(r.name)}${mime}`, r.description));
  }
  for (const t of templates.resourceTemplates)
    lines.push(...described(`${field(t.uriTemplate, 4096)}  ${field(t.name)} (template)`, t.description));
  lines.push(...leftOut([...list.excluded, ...templates.excluded]));
  if (lines.length === 0) lines.push('(no resources)');
  return `${lines.join('\n')}\n`;
}

export function formatPrompts(list: PromptList): string {
  const lines: string[] = [];
  for (const p of list.prompts) {
    const args = (p.arguments ?? []).map((a) => `${field(a.name)}${a.required ? '' : '?'}`);
    lines.push(...described(`${field(p.name)}(${args.join(', ')})`, p.description));
  }
  lines.push(...leftOut(list.excluded));
  if (lines.length === 0) lines.push('(no prompts)');
  return `${lines.join('\n')}\n`;
}

/** The blocks as a tool result, with binary content moved to private files (a warning if that fails). */
export async function blocksToFiles(
  content: ContentBlock[],
  io: CliIo,
): Promise<CallToolResult | PreparedResult> {
  const result: CallToolResult = { content };
  const binary = content.some(
    (b) => b.type === 'image' || b.type === 'audio' || (b.type === 'resource' && 'blob' in b.resource),
  );
  if (!binary) return result;
  try {
    const { prepare } = await import('../content/index.js');
    return await prepare(result);
  } catch (error) {
    io.stderr.write(`warning: the binary content was not written to files: ${formatError(error)}`);
    return result;
  }
}

export async function formatRead(read: ReadResourceResult, io: CliIo): Promise<string> {
  const blocks: ContentBlock[] = read.contents.map((resource) => ({ type: 'resource', resource }));
  const shown = formatResult(await blocksToFiles(blocks, io));
  const lines = leftOut(read.excluded);
  return lines.length === 0 ? shown : `${shown}${lines.join('\n')}\n`;
}

export async function formatPrompt(got: GetPromptResult, io: CliIo): Promise<string> {
  const out: string[] = [];
  if (got.description) out.push(...described('Prompt:', got.description));
  for (const message of got.messages) {
    out.push(`[${message.role}]`);
    out.push(formatResult(await blocksToFiles([message.content], io)).trimEnd());
  }
  out.push(...leftOut(got.excluded));
  return `${out.join('\n')}\n`;
}
