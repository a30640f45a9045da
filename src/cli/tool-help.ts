/**
 * What `tools` and `call <tool> --help` print about a tool's parameters (type, required or not, default,
 * description, from its `inputSchema`), and the message for an unknown tool name. Every
 * string here comes from the server and is printed through the CLI's terminal-safe text filter.
 */
import type { Tool } from '../client/index.js';
// The CLI's one terminal-safe text filter; the commands' own messages use it through `terminalSafe` below.
import { terminalText } from '../internal/terminal-text.js';
import { unknownToolHint } from '../internal/tool-names.js';
import { pointer } from './argument-schema.js';

function safeText(text: string): string {
  return terminalText(text);
}

/** Names and descriptions are cut to these lengths, and at most this many parameters are listed. */
const MAX_NAME = 120;
const MAX_LINE_DESCRIPTION = 160;
const MAX_DEFAULT = 80;
const MAX_PARAMS = 200;

interface ParamInfo {
  name: string;
  type: string;
  required: boolean;
  default?: string;
  description?: string;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line of server text, made safe: control characters gone, whitespace runs folded, bounded. */
function oneLine(text: string, max: number): string {
  return cut(
    safeText(text.slice(0, max * 4))
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );
}

/** Most fields shown of an object, and most `$ref` hops followed to find a schema. */
const MAX_FIELDS = 8;
const MAX_REF_HOPS = 8;

/** The schema node, with a local `$ref` (`#/$defs/Item`) followed inside `root`, never fetched. */
function resolved(schema: unknown, root: unknown): Record<string, unknown> | undefined {
  let s = record(schema);
  for (let hop = 0; hop < MAX_REF_HOPS && s !== undefined && typeof s['$ref'] === 'string'; hop++)
    s = record(pointer(root, s['$ref']));
  return s;
}

/**
 * A JSON Schema's type as a short word: `string`, `integer`, `array of string`, `"a" | "b"`, `string | null`,
 * and with `fields`, one level of an object's fields: `array of object {path: string, mode?: "a" | "b"}`
 * (`?`: optional; at most 8, then `…`; their own objects are shown as `object`).
 */
function schemaType(schema: unknown, root: unknown, depth = 0, fields = true): string {
  const s = resolved(schema, root);
  if (s === undefined || depth > 3) return 'any';
  if (Array.isArray(s['enum']) && s['enum'].length > 0) {
    const values = s['enum'].slice(0, 8).map((v) => oneLine(JSON.stringify(v) ?? 'null', 40));
    return `${values.join(' | ')}${s['enum'].length > 8 ? ' | …' : ''}`;
  }
  if (s['const'] !== undefined) return oneLine(JSON.stringify(s['const']) ?? 'null', 40);
  const type = s['type'];
  if (typeof type === 'string') {
    if (type === 'array' && s['items'] !== undefined)
      return `array of ${schemaType(s['items'], root, depth + 1, fields)}`;
    if (type === 'object') return `object${fields ? fieldList(s, root, depth) : ''}`;
    return oneLine(type, 40);
  }
  if (Array.isArray(type) && type.length > 0)
    return type
      .slice(0, 6)
      .map((t) => oneLine(String(t), 40))
      .join(' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0)
      return [...new Set(options.slice(0, 6).map((o) => schemaType(o, root, depth + 1, fields)))].join(' | ');
  }
  if (record(s['properties']) !== undefined) return `object${fields ? fieldList(s, root, depth) : ''}`;
  return 'any';
}

/** ` {a: string, b?: integer, …}` for an object schema's properties, or '' when it declares none. */
function fieldList(s: Record<string, unknown>, root: unknown, depth: number): string {
  const properties = record(s['properties']);
  const names = properties === undefined ? [] : Object.keys(properties);
  if (properties === undefined || names.length === 0) return '';
  const required = new Set(Array.isArray(s['required']) ? s['required'] : []);
  const shown = names
    .slice(0, MAX_FIELDS)
    .map(
      (name) =>
        `${oneLine(name, 40)}${required.has(name) ? '' : '?'}: ${schemaType(properties[name], root, depth + 1, false)}`,
    );
  return ` {${shown.join(', ')}${names.length > MAX_FIELDS ? ', …' : ''}}`;
}

/** The parameters of a tool as its `inputSchema` declares them (properties in their order), bounded. */
function toolParams(tool: Tool): { params: ParamInfo[]; more: number } {
  const schema = record(tool.inputSchema) ?? {};
  const properties = record(schema['properties']) ?? {};
  const required = new Set(
    Array.isArray(schema['required']) ? schema['required'].filter((r) => typeof r === 'string') : [],
  );
  const names = Object.keys(properties);
  const params = names.slice(0, MAX_PARAMS).map((name): ParamInfo => {
    const prop = record(properties[name]) ?? {};
    const info: ParamInfo = {
      name: oneLine(name, MAX_NAME),
      type: schemaType(prop, tool.inputSchema),
      required: required.has(name),
    };
    if (prop['default'] !== undefined)
      info.default = oneLine(JSON.stringify(prop['default']) ?? 'null', MAX_DEFAULT);
    if (typeof prop['description'] === 'string' && prop['description'].trim() !== '')
      info.description = safeText(prop['description']).trim();
    return info;
  });
  return { params, more: Math.max(0, names.length - MAX_PARAMS) };
}

/** `name: type, required` / `name: type, optional, default 5` and, with `full`, the whole description. */
function paramLines(tool: Tool, indent: string, full: boolean): string[] {
  const { params, more } = toolParams(tool);
  const lines: string[] = [];
  for (const p of params) {
    const facts = [p.type, p.required ? 'required' : 'optional'];
    if (p.default !== undefined) facts.push(`default ${p.default}`);
    const head = `${indent}${p.name}: ${facts.join(', ')}`;
    if (p.description === undefined) lines.push(head);
    else if (!full) lines.push(`${head} — ${oneLine(p.description, MAX_LINE_DESCRIPTION)}`);
    else
      lines.push(
        head,
        ...p.description
          .split('\n')
          .slice(0, 20)
          .map((l) => `${indent}    ${cut(l.trimEnd(), 400)}`),
      );
  }
  if (more > 0) lines.push(`${indent}… and ${more} more parameters (see --json)`);
  return lines;
}

/** The parameter lines of one tool (`  text: string, required — …`), as `tools` prints them; for usage errors. */
export function formatParameters(tool: Tool): string {
  const lines = paramLines(tool, '  ', false);
  return lines.length > 0 ? lines.join('\n') : '  (none)';
}

/**
 * `tools`: each tool as `name(a, b)`, its description (3 lines), and one line per parameter; then the
 * tools left out, a tool that drifted from its pin marked as such (named by its changed parts only);
 * then the app-only tools (MCP Apps), callable but never offered to a model.
 */
export function formatToolList(
  tools: readonly Tool[],
  excluded: ReadonlyArray<{ name: string; reason: string; drift?: unknown }>,
  appOnly: readonly Tool[] = [],
): string {
  const lines: string[] = [];
  for (const tool of tools) {
    const { params, more } = toolParams(tool);
    const names = params.map((p) => p.name).join(', ') + (more > 0 ? ', …' : '');
    lines.push(`${oneLine(tool.name, MAX_NAME)}(${names})`);
    const description = tool.description ? safeText(tool.description).trim() : '';
    if (description)
      lines.push(
        ...description
          .split('\n')
          .slice(0, 3)
          .map((l) => `    ${cut(l.trimEnd(), 400)}`),
      );
    lines.push(...paramLines(tool, '    - ', false));
  }
  for (const item of excluded) {
    const mark = item.drift === undefined ? '(left out)' : '(drifted from its pin, left out)';
    lines.push(`${mark} ${oneLine(item.name, MAX_NAME)}: ${safeText(item.reason)}`);
  }
  for (const tool of appOnly)
    lines.push(`(app-only) ${oneLine(tool.name, MAX_NAME)}: callable by name, never offered to a model`);
  if (lines.length === 0) lines.push('(no tools)');
  return `${lines.join('\n')}\n`;
}

/**
 * `call <tool> --help`: one tool, its whole description and every parameter with its description. The
 * call line ends with `<target>`, or with `callAs` (`NAME.TOOL`, a configured server) it is that form.
 */
export function formatToolHelp(tool: Tool, callAs?: string): string {
  const name = oneLine(tool.name, MAX_NAME);
  const lines = [`Tool ${name}`];
  const description = tool.description ? safeText(tool.description).trim() : '';
  if (description)
    lines.push(
      ...description
        .split('\n')
        .slice(0, 40)
        .map((l) => `    ${cut(l.trimEnd(), 400)}`),
    );
  const params = paramLines(tool, '  ', true);
  lines.push('', params.length > 0 ? 'Parameters:' : 'Parameters: none', ...params);
  const { params: list } = toolParams(tool);
  const example = Object.fromEntries(
    list.filter((p) => p.required).map((p) => [p.name, exampleValue(p.type)]),
  );
  const args = shellWord(JSON.stringify(example));
  const call =
    callAs === undefined
      ? `${shellWord(name)} ${args} <target>`
      : `${shellWord(oneLine(callAs, MAX_NAME * 2))} ${args}`;
  lines.push('', `Call it: autos-mcp call ${call}`);
  return `${lines.join('\n')}\n`;
}

function exampleValue(type: string): unknown {
  if (type === 'string') return '…';
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return false;
  if (type.startsWith('array')) return [];
  if (type.startsWith('object')) return {};
  return null;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * The message of an unknown tool: `unknown tool "ech": the server has no tool of that name (nothing was
 * called); did you mean: echo? (its tools: echo, fail)`. With more than 20 tools, the closest and the
 * command that lists them: `autos-mcp tools <listWith>`.
 */
export function unknownToolMessage(wanted: string, names: readonly string[], listWith = '<target>'): string {
  const shown = JSON.stringify(oneLine(wanted, MAX_NAME));
  const hint = unknownToolHint(wanted, names, `; autos-mcp tools ${listWith} lists them`);
  return `unknown tool ${shown}: the server has no tool of that name (nothing was called); ${hint}`;
}

/** Server text safe for a terminal, for other CLI output that shows it (one place imports the filter). */
export function terminalSafe(text: string): string {
  return safeText(text);
}
