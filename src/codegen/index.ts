/**
 * Typed modules generated from a server's tool list (`autos-mcp types`): one module, or a file tree of
 * one file per tool (`--tree`). Internal to the CLI: the generated code uses only the public API of
 * `autos-mcp`, never this folder.
 */
export { loadCompiler, MISSING_LIBRARY_MESSAGE, type SchemaCompiler } from './compiler.js';
export { generateModule, type ModuleInput } from './module.js';
export { generateTree, type TreeFile, type TreeInput } from './tree.js';
export { MANIFEST, staleness, type TreeWrite, writeTree, writeWhole } from './tree-files.js';
export { serverFolder } from './tree-names.js';
export type { ToolToType } from './typed-tools.js';
