/**
 * The step both outputs of `autos-mcp types` share: each tool of a list typed once — its input type, its
 * output type where it declares an `outputSchema`, its doc paragraphs and its pin — with type names made
 * unique across the list. The single module (`module.ts`) and the file tree (`tree.ts`) only lay these out.
 * Server text is data: it reaches a declaration only as comment text or string literals (`text.ts`).
 */
import { McpError } from '../errors/index.js';
import type { SchemaCompiler } from './compiler.js';
import { safeSchema } from './safe-schema.js';
import { commentBody, jsDoc, stringLiteral, typeStem } from './text.js';

/** One tool to type: its definition as listed, and its digests (`listToolsDetailed().digests`). */
export interface ToolToType {
  tool: {
    name: string;
    title?: string | undefined;
    description?: string | undefined;
    inputSchema: unknown;
    outputSchema?: unknown;
    /** Behaviour hints (`readOnlyHint`…): shown by the tree, not the single module. */
    annotations?: unknown;
  };
  digest: { digest: string; parts: Readonly<Record<string, string | undefined>> };
}

/** A declared type: its name, its source text (ending in a newline). */
export interface Declared {
  name: string;
  text: string;
  /** The input has no required member: `args` may be left out. */
  optional: boolean;
}

/** One tool, typed. */
export interface TypedTool {
  /** The tool's name as listed (server text: only ever written through `stringLiteral`/`commentBody`). */
  name: string;
  /** Its title and description as safe comment paragraphs. */
  about: string[];
  input: Declared;
  output?: Declared;
  /** The result type: `CallToolResult`, or `TypedResult<…Output>`. */
  result: string;
  /** `{ digest: "…", parts: { … } }` as source. */
  pin: string;
}

const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Every tool of the list typed, in list order. The input type's comment repeats the tool's title and
 * description unless `aboutInInput` is false (the tree has them on the function beside it). Throws
 * `invalid_tool` when no tool is left to type.
 */
export async function typeTools(
  tools: readonly ToolToType[],
  compile: SchemaCompiler,
  { aboutInInput = true }: { aboutInInput?: boolean } = {},
): Promise<TypedTool[]> {
  if (tools.length === 0)
    throw new McpError('invalid_tool', 'nothing to generate: the server lists no tool that can be typed', {
      delivery: 'delivered',
    });
  const stems = new Set<string>();
  const typed: TypedTool[] = [];
  for (const [index, { tool, digest }] of tools.entries()) {
    const stem = uniqueStem(typeStem(tool.name, index), stems);
    const about = toolDoc(tool);
    const input = await declare(
      tool.inputSchema,
      `${stem}Input`,
      [`Arguments of the tool ${commentBody(tool.name, 200)}.`, ...(aboutInInput ? about : [])],
      compile,
    );
    const entry: TypedTool = {
      name: tool.name,
      about,
      input,
      result: 'CallToolResult',
      pin: pinLiteral(digest),
    };
    if (isObject(tool.outputSchema)) {
      entry.output = await declare(
        tool.outputSchema,
        `${stem}Output`,
        [`Structured result of the tool ${commentBody(tool.name, 200)}.`],
        compile,
      );
      entry.result = `TypedResult<${entry.output.name}>`;
    }
    typed.push(entry);
  }
  return typed;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The doc paragraphs of a tool: its title and description, made safe. */
function toolDoc(tool: ToolToType['tool']): string[] {
  const out: string[] = [];
  if (typeof tool.title === 'string') out.push(commentBody(tool.title, 300));
  if (typeof tool.description === 'string') out.push(commentBody(tool.description));
  return out.filter((p) => p !== '');
}

function uniqueStem(stem: string, used: Set<string>): string {
  let candidate = stem;
  for (let n = 2; used.has(candidate); n++) candidate = `${stem}${n}`;
  used.add(candidate);
  return candidate;
}

/**
 * `export interface|type <name>` from `schema`, through the reduced schema and the compiler. The text is
 * checked to declare `name` and nothing else; when it does not, or the compiler fails, the type is a
 * plain object of unknown values and its comment says so (never the compiler's message: it may quote the
 * schema).
 */
async function declare(
  schema: unknown,
  name: string,
  doc: readonly string[],
  compile: SchemaCompiler,
): Promise<Declared> {
  const reduced = safeSchema(schema);
  const notes = reduced.notes.map((note) => `Note: ${note}.`);
  const description = [...doc, ...notes].filter((p) => p !== '').join('\n\n');
  if (description !== '') reduced.schema['description'] = description;
  const required = reduced.schema['required'];
  const optional =
    !(Array.isArray(required) && required.length > 0) &&
    !['anyOf', 'oneOf', 'allOf'].some((k) => Object.hasOwn(reduced.schema, k));
  let text: string | undefined;
  try {
    text = await compile(reduced.schema, name);
  } catch {
    text = undefined;
  }
  if (text !== undefined && declaresOnly(text, name)) return { name, text: `${text.trim()}\n`, optional };
  const fallback = jsDoc([...doc, 'Note: this schema could not be turned into a type.']);
  return { name, text: `${fallback}export type ${name} = { [key: string]: unknown };\n`, optional };
}

/** Whether `text` declares exactly `name`, at the top level, and nothing else. */
function declaresOnly(text: string, name: string): boolean {
  const declared = [...text.matchAll(/^export\s+(?:declare\s+)?(?:interface|type|enum|const)\s+([\w$]+)/gm)];
  const statements = text.match(/^(?:export|import|declare)\s/gm) ?? [];
  return declared.length === 1 && declared[0]?.[1] === name && statements.length === 1;
}

/** `{ digest: "…", parts: { … } }` as source, from checked digest strings only. */
function pinLiteral(digest: ToolToType['digest']): string {
  if (!SHA256_DIGEST.test(digest.digest))
    throw new McpError('protocol', 'a tool digest is not a sha256 digest');
  const parts = Object.keys(digest.parts)
    .sort()
    .flatMap((part) => {
      const value = digest.parts[part];
      return /^[a-zA-Z]+$/.test(part) && value !== undefined && SHA256_DIGEST.test(value)
        ? [`${part}: ${stringLiteral(value)}`]
        : [];
    });
  return `{ digest: ${stringLiteral(digest.digest)}, parts: { ${parts.join(', ')} } }`;
}
