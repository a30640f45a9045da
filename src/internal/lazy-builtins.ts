/**
 * Node built-ins that cost milliseconds to load and that most processes never use, loaded on first use
 * instead of with the library: node:crypto (~4 ms on a 2-core machine: tool digests, file names, hashes)
 * and node:util (~1 ms: it loads its argument parser and MIME code). A process that imports autos-mcp and
 * makes one call pays for neither unless it needs them (docs/performance.md, cold start). Static imports
 * of these two stay out of the modules that load with the library; anything else may import them as usual.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

let crypto: typeof import('node:crypto') | undefined;
let util: typeof import('node:util') | undefined;

/** node:crypto, loaded on the first call. */
export function nodeCrypto(): typeof import('node:crypto') {
  crypto ??= load('node:crypto') as typeof import('node:crypto');
  return crypto;
}

/** node:util, loaded on the first call. */
export function nodeUtil(): typeof import('node:util') {
  util ??= load('node:util') as typeof import('node:util');
  return util;
}
