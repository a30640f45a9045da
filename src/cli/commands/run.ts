/**
 * `autos-mcp run <file.js|file.ts|-> [--allow <glob>]…`: agent-written code run in the sandbox of
 * `autos-mcp/code` over the catalog of the configured servers. Only the value, the logs and the list of
 * calls come out; `--json` prints exactly the run's result.
 */
import { terminalApprover } from '../approval-prompt.js';
import { readArgumentSources } from '../argument-sources.js';
import { type Args, defineCommand } from '../command.js';
import { withCatalog } from '../configured-catalog.js';
import { safe } from '../configured-target.js';
import { EXIT } from '../exit.js';
import type { CliIo } from '../io.js';
import { CONFIGURED_OPTIONS, MAX_CHARS, nonEmpty, single, wholeNumber } from '../options.js';
import { terminalSafe } from '../tool-help.js';
import { UsageError } from '../usage-error.js';

const RUN_OPTIONS = {
  ...CONFIGURED_OPTIONS,
  allow: {
    names: ['--allow'],
    value: '<glob>',
    repeatable: true,
    description: 'tools the code may call, as server.tool globs (repeatable; default: every tool)',
    initial: undefined as readonly string[] | undefined,
    add: (held: readonly string[] | undefined, text: string) => [
      ...(held ?? []),
      nonEmpty('--allow needs a glob: --allow "server.*"')(text),
    ],
  },
  timeout: single(
    ['--timeout'],
    '<ms>',
    'deadline of the whole run (default 30000)',
    wholeNumber('--timeout', 1, 3_600_000),
  ),
  memory: single(
    ['--memory'],
    '<MB>',
    'memory cap of the sandbox (default 64)',
    wholeNumber('--memory', 1, 4096),
  ),
  maxChars: MAX_CHARS,
} as const;

type RunArgs = Args<typeof RUN_OPTIONS>;

export const runCommand = defineCommand({
  name: 'run',
  usage: ['<file.js|file.ts|-> [--allow <glob>]… [--timeout ms] [--memory MB] [--json]'],
  synopsis: '<file.js|file.ts|-> [--allow <glob>]…',
  summary: 'run code that calls the configured servers, in a sandbox',
  about: `Runs the file (- reads stdin) as the body of an async function, in a QuickJS sandbox with no files,
network, environment or imports. Inside: await servers.<server>.<tool>(args), mcp.call('server.tool',
args), mcp.search(query, { limit }), mcp.describe('server.tool'), console.log. The servers are the
configured ones (autos-mcp servers); each starts on its first call and all are closed at the end.
A tool that needs approval (tools.approve in its config) asks on the terminal, and is refused when no
one can answer. Printed: the logs, then the returned value; --json prints {"value", "logs", "calls",
"error"?}. Exit code 0 when the code returned, 3 when it threw, timed out or ran out of memory.
Example: autos-mcp run task.ts --allow 'memory.*' --json`,
  options: RUN_OPTIONS,
  target: 'none',
  run,
});

/** The code: the file's text, or stdin's (`-`), bounded and UTF-8 (read as `call` reads `key=@file`). */
async function readSource(file: string, io: CliIo): Promise<string> {
  const read = (await readArgumentSources([file], io.stdin ?? process.stdin)).get(file);
  if (read === undefined || 'problem' in read)
    throw new UsageError(`cannot read the code: ${read?.problem ?? 'nothing read'}`);
  return read.text;
}

async function run(args: RunArgs, io: CliIo): Promise<number> {
  const [file, extra] = args.positionals;
  if (file === undefined) throw new UsageError('give the code: autos-mcp run task.ts (or - for stdin)');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safe(extra, 60))}`);
  const source = await readSource(file, io);
  const { runCode } = await import('../../code/index.js');
  // A tool that needs approval asks on the terminal (when stdin and stderr are one); else it is refused.
  const onApprove = file === '-' ? undefined : terminalApprover(io);
  const result = await withCatalog(
    args,
    io,
    (servers) =>
      runCode(source, {
        catalog: servers,
        ...(args.allow === undefined ? {} : { allow: args.allow }),
        ...(args.timeout === undefined ? {} : { timeoutMs: args.timeout }),
        ...(args.memory === undefined ? {} : { memoryMb: args.memory }),
        ...(/\.m?js$/.test(file)
          ? { language: 'js' as const }
          : /\.m?ts$/.test(file)
            ? { language: 'ts' as const }
            : {}),
      }),
    {
      ...(onApprove === undefined ? {} : { onApprove }),
      ...(args.maxChars === undefined ? {} : { maxResultChars: args.maxChars }),
    },
  );
  if (args.json) io.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    for (const line of result.logs) io.stderr.write(`${terminalSafe(line)}\n`);
    if (result.error !== undefined)
      io.stderr.write(`run failed (${result.error.kind}): ${terminalSafe(result.error.message)}\n`);
    else io.stdout.write(`${terminalSafe(JSON.stringify(result.value, null, 2) ?? 'undefined')}\n`);
  }
  return result.error === undefined ? EXIT.ok : EXIT.failure;
}
