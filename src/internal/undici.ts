/**
 * undici, loaded on first use only, synchronously (the HTTP transport builds its pool in a constructor).
 * The paths that need no undici (the transport's node:http pool) never load it, nor compile its llhttp
 * WebAssembly.
 *
 * undici is loaded by the path of its package's entry file, not by the name `undici`: Bun answers that
 * name with a built-in module of its own whose dispatchers do not serve requests (`Pool#request` resolves
 * to `undefined`, the proxy agents have no `request`), so every proxied or custom-CA request failed there.
 * The file is the npm package on every runtime; its `main` is read from its package.json.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const load = createRequire(import.meta.url);
let undici: typeof import('undici') | undefined;

/** The npm package undici (its module, loaded once). */
export function loadUndici(): typeof import('undici') {
  if (undici === undefined) {
    const manifest = load.resolve('undici/package.json');
    const { main } = load(manifest) as { main?: string };
    undici = load(join(dirname(manifest), main ?? 'index.js')) as typeof import('undici');
  }
  return undici;
}
