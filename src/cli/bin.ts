#!/usr/bin/env node
/**
 * The `autos-mcp` executable: turns the compile cache on (`compile-cache.ts`, before any of the CLI's code
 * is loaded, so that all of it is cached), then loads the CLI, runs it and exits with its code.
 */
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
const [{ main }, { safeText }] = await Promise.all([
  import('./main.js'),
  import('../internal/terminal-text.js'),
]);

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `autos-mcp: unexpected failure: ${safeText(error instanceof Error ? error.message : String(error))}\n`,
    );
    process.exitCode = 3;
  },
);
