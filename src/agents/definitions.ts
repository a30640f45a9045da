/**
 * The part every format shares: from one server's tool list, or a record of them by server key, the
 * definitions to hand a model (name, description, schema), the reverse map of names, and what was changed
 * on the way. Pure: the lists come from `client.listTools()`, so a config's `tools` filter and `pin`s have
 * already applied (and apply again to every `callTool`). An app-only tool (MCP Apps, `isAppOnly`) is not
 * in `listTools()`; one given anyway (a list from elsewhere) is left out here too, with an issue.
 */
import type { Tool } from '../client/index.js';
import { APP_ONLY_REASON, isAppOnly } from '../protocol/apps-ui.js';
import { assignNames, plainName, TOOL_NAME_RULE, type ToolNames, type ToolTarget } from './names.js';
import { convertSchema, type SchemaIssue, type SchemaTarget } from './schema.js';

/**
 * Where tools come from: one server's `listTools()`, or a record of them by server key (each name given
 * to the model is then `key__tool`, so two servers' tools never collide).
 */
export type ToolSource = readonly Tool[] | Readonly<Record<string, readonly Tool[]>>;

/** Options every format takes. */
export interface DefinitionOptions {
  /** Descriptions longer than this are cut (reported as `cut`). Default: not cut. */
  maxDescriptionLength?: number;
}

/** Something that happened to one tool on its way to a model API (see `SchemaIssue.action`). */
export interface ToolIssue extends SchemaIssue {
  /** The server key, for a record of servers. */
  server?: string;
  /** The tool's name as the server lists it. */
  tool: string;
  /** The name given to the model; absent when the tool was left out. */
  name?: string;
}

/** One definition in a neutral shape, before a format gives it its API's field names. */
export interface Definition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** Definitions, names and issues for one target. */
export interface Definitions {
  definitions: Definition[];
  names: ToolNames;
  issues: ToolIssue[];
}

/** Builds the neutral definitions for `target` (with OpenAI strict mode where asked for and possible). */
export function buildDefinitions(
  source: ToolSource,
  target: SchemaTarget,
  options: DefinitionOptions & { strict?: boolean } = {},
): Definitions {
  const issues: ToolIssue[] = [];
  const seen = new Set<string>();
  const entries: { target: ToolTarget; tool: Tool }[] = [];
  for (const [server, tools] of sourceEntries(source)) {
    for (const tool of tools) {
      const key = JSON.stringify([server ?? null, tool.name]);
      const at: ToolTarget = server === undefined ? { tool: tool.name } : { server, tool: tool.name };
      if (isAppOnly(tool)) {
        issues.push({ ...at, path: '', problem: APP_ONLY_REASON, action: 'left_out' });
        continue;
      }
      if (seen.has(key)) {
        issues.push({
          ...at,
          path: '',
          problem: 'the same tool is listed twice; the first is used',
          action: 'left_out',
        });
        continue;
      }
      seen.add(key);
      entries.push({ target: at, tool });
    }
  }
  const converted = entries.map(({ target: at, tool }) => ({
    at,
    tool,
    schema: convertSchema(tool.inputSchema, target, options.strict === true),
  }));
  for (const { at, schema } of converted) {
    if (schema.schema === undefined) for (const issue of schema.issues) issues.push({ ...at, ...issue });
  }
  const kept = converted.filter((c) => c.schema.schema !== undefined);
  const assigned = assignNames(kept.map((c) => c.at));
  // A key like `__proto__` (server data) is set as an own property, never as the prototype.
  const names: ToolNames = {};
  const definitions: Definition[] = [];
  kept.forEach(({ at, tool, schema }, index) => {
    const name = assigned[index] as string;
    Object.defineProperty(names, name, { value: at, enumerable: true, writable: true, configurable: true });
    // A model calls the tool by this name: a change the caller may show or log is reported, never silent.
    const plain = plainName(at);
    if (name !== plain)
      issues.push({
        ...at,
        name,
        path: '',
        problem: TOOL_NAME_RULE.test(plain)
          ? `another tool has the same name ${at.server === undefined ? '' : '(with its server key) '}so a suffix tells them apart`
          : 'the API accepts only letters, digits, _ and - in a tool name, at most 64 of them',
        action: 'renamed',
      });
    for (const issue of schema.issues) issues.push({ ...at, name, ...issue });
    const definition: Definition = { name, parameters: schema.schema ?? {}, strict: schema.strict };
    let description =
      typeof tool.description === 'string'
        ? tool.description
        : typeof tool.title === 'string'
          ? tool.title
          : undefined;
    const max = options.maxDescriptionLength;
    if (description !== undefined && max !== undefined && description.length > max) {
      description = description.slice(0, Math.max(0, max));
      issues.push({
        ...at,
        name,
        path: '',
        problem: `the description was cut to ${max} characters`,
        action: 'cut',
      });
    }
    if (description !== undefined) definition.description = description;
    definitions.push(definition);
  });
  return { definitions, names, issues };
}

function sourceEntries(source: ToolSource): [string | undefined, readonly Tool[]][] {
  if (Array.isArray(source)) return [[undefined, source]];
  return Object.entries(source as Readonly<Record<string, readonly Tool[]>>);
}
