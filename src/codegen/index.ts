/**
 * Typed modules generated from a server's tool list (`autos-mcp types`). Internal to the CLI: the
 * generated module uses only the public API of `autos-mcp`, never this folder.
 */
export { loadCompiler, MISSING_LIBRARY_MESSAGE, type SchemaCompiler } from './compiler.js';
export { generateModule, type ModuleInput, type ToolToType } from './module.js';
