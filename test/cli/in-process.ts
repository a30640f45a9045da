/**
 * Runs `autos-mcp` in this process: `main(argv, io)` with stdout and stderr captured and stdin given as
 * text (empty by default, so nothing reads the test runner's own stdin). Environment variables and the
 * working directory are set for the run and restored after it; runs must not overlap (a test file's
 * tests run one at a time). Much faster than a child process; the built binary is tested apart.
 */
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Variables set for the run (undefined: unset). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** What stdin holds (default: nothing, at its end). */
  readonly input?: string;
}

export async function runMain(argv: readonly string[], options: RunOptions = {}): Promise<Run> {
  const saved = Object.keys(options.env ?? {}).map((name) => [name, process.env[name]] as const);
  for (const [name, value] of Object.entries(options.env ?? {}))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  const cwd = process.cwd();
  if (options.cwd !== undefined) process.chdir(options.cwd);
  let stdout = '';
  let stderr = '';
  try {
    const code = await main(argv, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text), isTTY: false },
      stdin: Readable.from(options.input === undefined ? [] : [options.input]),
    });
    return { code, stdout, stderr };
  } finally {
    process.chdir(cwd);
    for (const [name, value] of saved)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  }
}
