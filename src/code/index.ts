/**
 * `autos-mcp/code`: agent-written JavaScript or TypeScript run in a QuickJS (WebAssembly) sandbox whose only
 * way out is a catalog of tools (`mcp.call`, `mcp.search`, `mcp.describe`, `servers.<server>.<tool>`).
 * docs/code-mode.md is the guide.
 */
export { DEFAULT_LIMITS } from './limits.js';
export { runCode } from './run-code.js';
export type {
  CallRecord,
  CodeCatalog,
  RunCodeOptions,
  RunError,
  RunErrorKind,
  RunResult,
} from './types.js';
