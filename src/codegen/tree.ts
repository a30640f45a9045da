/**
 * A typed file tree from a tool list (`autos-mcp types --tree`): per tool `<file>.ts` holding its input
 * and output types and one typed async function, `index.ts` re-exporting them with the list digest and
 * the binding the functions call through, and `pins.ts` (each tool's digests). Pure: tools in, files out; the types come from
 * the same step as the single module (`typeTools`). Names come from `treeNames`; server text reaches a
 * file only as comment text or string literals, and every file is passed through `escapeInvisible`.
 */
import { McpError } from '../errors/index.js';
import { BINDING, IMPORTS, TYPED_RESULT } from './binding.js';
import type { SchemaCompiler } from './compiler.js';
import { header, type ModuleInput, pinEntry, pinsBlock, structuredBlock } from './module.js';
import { commentBody, escapeInvisible, jsDoc, propertyKey, stringLiteral } from './text.js';
import { TREE_BINDING, TREE_MARKER } from './tree-binding.js';
import { type TreeName, treeNames } from './tree-names.js';
import { type TypedTool, typeTools } from './typed-tools.js';

export interface TreeInput extends ModuleInput {
  /** The folder's server name, as code mode names it (`servers.<server>.<tool>`). */
  serverName: string;
  /** The digest of the tool list the tree is made from (`listToolsDetailed().listDigest`). */
  listDigest: string;
}

/** One file of a tree: its name inside the server's folder, and its text. */
export interface TreeFile {
  file: string;
  text: string;
  /** The tool it types (absent for `index.ts`). */
  tool?: string;
}

const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

/** The files of the tree, `index.ts` first. Throws `invalid_tool` when no tool is left to type. */
export async function generateTree(input: TreeInput, compile: SchemaCompiler): Promise<TreeFile[]> {
  const typed = await typeTools(input.tools, compile, { aboutInInput: false });
  const types = new Set(
    typed.flatMap((t) => [t.input.name, ...(t.output === undefined ? [] : [t.output.name])]),
  );
  const names = treeNames(
    typed.map((t) => t.name),
    types,
  );
  const hints = new Map(input.tools.map(({ tool }) => [tool.name, hintLine(tool.annotations)]));
  const tools = typed.map((tool) => {
    const name = names.get(tool.name) as TreeName;
    return { tool, name, text: toolFile(tool, name, input.serverName, hints.get(tool.name) ?? '') };
  });
  // The pins (each tool's digests, ~500 bytes a tool) have their own file: index.ts stays short to read.
  const pins = `${TREE_MARKER}\n${pinsBlock(tools.map(({ tool }) => pinEntry(tool))).slice(1)}`;
  const files: TreeFile[] = [
    { file: 'index.ts', text: escapeInvisible(indexFile(input, tools)) },
    { file: 'pins.ts', text: escapeInvisible(pins) },
  ];
  for (const { tool, name, text } of tools)
    files.push({ file: `${name.file}.ts`, text: escapeInvisible(text), tool: tool.name });
  return files;
}

interface Placed {
  tool: TypedTool;
  name: TreeName;
}

function toolFile(tool: TypedTool, name: TreeName, server: string, hint: string): string {
  const fromIndex = tool.output === undefined ? 'callTool' : 'callTool, type TypedResult';
  const fromPackage = tool.output === undefined ? 'CallOptions, CallToolResult' : 'CallOptions';
  const args = `args${tool.input.optional ? '?' : ''}: ${tool.input.name}`;
  const doc = [...tool.about, ...(hint === '' ? [] : [hint]), ...codeModeLine(server, tool.name)];
  return [
    `${TREE_MARKER}\n`,
    `import type { ${fromPackage} } from 'autos-mcp';\n`,
    `import { ${fromIndex} } from './index.js';\n`,
    '\n',
    tool.input.text,
    ...(tool.output === undefined ? [] : ['\n', tool.output.text]),
    '\n',
    jsDoc(doc),
    `export function ${name.identifier}(${args}, options?: CallOptions): Promise<${tool.result}> {\n`,
    `  return callTool(${stringLiteral(tool.name)}, args, options);\n`,
    '}\n',
  ].join('');
}

function indexFile(input: TreeInput, tools: readonly Placed[]): string {
  if (!SHA256_DIGEST.test(input.listDigest))
    throw new McpError('protocol', 'the tool list digest is not a sha256 digest');
  const byFile = [...tools].sort((a, b) => (a.name.file < b.name.file ? -1 : 1));
  const imports = byFile.map(({ name }) => `import { ${name.identifier} } from './${name.file}.js';\n`);
  const typeExports = byFile.map(({ tool, name }) => {
    const types = [tool.input.name, ...(tool.output === undefined ? [] : [tool.output.name])];
    return `export type { ${types.join(', ')} } from './${name.file}.js';\n`;
  });
  const members = tools.map(({ tool, name }) => `  ${propertyKey(tool.name)}: typeof ${name.identifier};\n`);
  const structured = tools
    .filter(({ tool }) => tool.output !== undefined)
    .map(({ tool }) => stringLiteral(tool.name));
  const about = [
    `Each tool is one file of this folder (its types and one function); this file re-exports them and holds the binding they call through.`,
    `Code mode calls them as servers.${commentBody(input.serverName, 100)}.<tool>(args) (each file shows its own line); from TypeScript: use(client), then call the functions, or withTools(config, async (tools) => …).`,
  ];
  return [
    `${TREE_MARKER}\n`,
    header(input, 'Typed tools, one file each,', about),
    IMPORTS,
    "import { pins } from './pins.js';\n",
    ...imports,
    '\n',
    `export { ${byFile.map(({ name }) => name.identifier).join(', ')} };\n`,
    ...typeExports,
    '\n',
    TYPED_RESULT,
    '\n/** The tools of the server, one function each, by the names the server gives them. */\n',
    `export interface Tools {\n${members.join('')}}\n`,
    '\n/** The digest of the tool list this folder was generated from: it is regenerated when this changes. */\n',
    `export const listDigest = ${stringLiteral(input.listDigest)};\n`,
    "\n/** Each tool's definition digest when this folder was generated (in pins.ts). */\n",
    'export { pins };\n',
    structuredBlock(structured),
    BINDING,
    TREE_BINDING,
  ].join('');
}

/** The behaviour hints a tool declares (the server's word), as one doc line; '' when none. */
function hintLine(annotations: unknown): string {
  if (typeof annotations !== 'object' || annotations === null) return '';
  const said = annotations as Record<string, unknown>;
  const hints: string[] = [];
  if (said['readOnlyHint'] === true) hints.push('read-only');
  if (said['destructiveHint'] === true) hints.push('destructive');
  else if (said['destructiveHint'] === false) hints.push('not destructive');
  if (said['idempotentHint'] === true) hints.push('idempotent');
  if (said['openWorldHint'] === true) hints.push('reaches outside systems');
  return hints.length === 0 ? '' : `Hints (the server's word, not checked): ${hints.join(', ')}.`;
}

/** How sandboxed code calls the tool, when both names can be written plainly. */
function codeModeLine(server: string, tool: string): string[] {
  const member = (name: string) => (IDENTIFIER.test(name) ? `.${name}` : `[${stringLiteral(name)}]`);
  if (server.length > 100 || tool.length > 100) return [];
  return [commentBody(`In code mode: await servers${member(server)}${member(tool)}(args)`, 300)];
}
