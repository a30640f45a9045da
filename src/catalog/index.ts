/**
 * `autos-mcp/catalog`: many MCP servers as one searchable catalog. `catalog(servers)` over server configs
 * or `loadServers()`; `search` ranks every server's tools (BM25F over names split into words,
 * descriptions and parameters), `describe` gives one tool's whole definition with its digest, `call` runs
 * it by `server.tool`. Servers start on first use and stay warm until `close()`.
 */
export { catalog } from './catalog.js';
export type { CatalogServers } from './sources.js';
export type {
  Catalog,
  CatalogCallOptions,
  CatalogOptions,
  CatalogProblem,
  CatalogSearch,
  SearchDetail,
  SearchHit,
  SearchOptions,
  ToolDescription,
} from './types.js';
