#!/usr/bin/env node
import { safeText } from '../internal/terminal-text.js';
/** The `autos-mcp` executable: runs the CLI and exits with its code. */
import { main } from './main.js';

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
