/**
 * Skills as lines for a person (`skills`, `skill`). Every string a server controls — names, descriptions,
 * URIs, reasons — goes through the one sanitizer (`terminal-text.ts`).
 */
import type { ReadSkillResult, SkillList } from '../client/index.js';
import { RpcError } from '../errors/index.js';
import { terminalText } from '../internal/terminal-text.js';

const METHOD_NOT_FOUND = -32601;

/** A server that does not know `skills/list` or `skills/get` (-32601): the same error, with this client's hint. */
export function withoutSkillsHint(error: unknown, target: string): unknown {
  if (!(error instanceof RpcError) || error.code !== METHOD_NOT_FOUND) return error;
  return new RpcError(
    'skills',
    target,
    error.code,
    error.rpcMessage,
    error.data,
    'the server does not offer the skills extension (io.modelcontextprotocol/skills)',
  );
}

const field = (text: string, max = 500): string => terminalText(text, { oneLine: true, max });
const files = (count: number): string => `${count} file${count === 1 ? '' : 's'}`;

export function formatSkills(list: SkillList): string {
  const lines: string[] = [];
  for (const skill of list.skills) {
    const count = skill.resources === 'dynamic' ? 'dynamic' : files(skill.resources.length);
    lines.push(`${field(skill.frontmatter.name, 100)}  ${field(skill.uri, 4096)}  (${count})`);
    const description = terminalText(skill.frontmatter.description, { max: 1100 }).trim();
    for (const line of description
      .split('\n')
      .filter((l) => l !== '')
      .slice(0, 3))
      lines.push(`    ${line}`);
  }
  for (const item of list.excluded) lines.push(`(left out) ${field(item.name)}: ${field(item.reason)}`);
  if (lines.length === 0) lines.push('(no skills)');
  return `${lines.join('\n')}\n`;
}

export function formatSkillRead(read: ReadSkillResult): string {
  const bytes = read.files.reduce((sum, file) => sum + file.size, 0);
  const head = `${field(read.skill.frontmatter.name, 100)}: ${files(read.files.length)}, ${bytes} bytes, verified → ${field(read.dir, 4096)}`;
  return `${[head, ...read.files.map((file) => `  ${field(file.path, 4096)}  ${file.size}`)].join('\n')}\n`;
}
