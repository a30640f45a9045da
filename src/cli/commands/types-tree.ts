/**
 * `autos-mcp types --tree <dir> [<target>]`: a typed file tree per server (`src/codegen/tree.ts`), in
 * `<dir>/<server>/`. Rewritten only when the server's tool list digest or the generator changed
 * (`--check` only says whether it did); with no target, every configured server, one after the other, a
 * server that fails named and the rest still written.
 */
import path from 'node:path';
import type { ServerConfig } from '../../client/index.js';
import { isMcpError } from '../../errors/index.js';
import { PACKAGE_VERSION } from '../../version.js';
import type { Args } from '../command.js';
import { load } from '../configured-target.js';
import { resolveTarget, type Target, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import type { CliIo } from '../io.js';
import { flag, nonEmpty, single, type TARGET_OPTIONS } from '../options.js';
import { withCommandLine } from '../target.js';
import { terminalSafe } from '../tool-help.js';
import { UsageError } from '../usage-error.js';

/** The options `types` takes for a tree. */
export const TREE_OPTIONS = {
  tree: single(
    ['--tree'],
    'dir',
    'write a typed file tree: <dir>/<server>/<tool>.ts and index.ts (no target: every configured server)',
    nonEmpty('--tree needs a directory'),
  ),
  name: single(
    ['--name'],
    'server',
    'the server folder of --tree for a URL or command target (default: from the URL or command)',
    nonEmpty('--name needs a name'),
  ),
  check: flag(['--check'], 'with --tree: write nothing, exit 1 when a server folder is stale'),
} as const;

type TreeArgs = Args<typeof TREE_OPTIONS & typeof TARGET_OPTIONS>;

interface Job {
  server: string;
  target: Target;
}

/** What happened to one server's folder (`--json`: one entry of `servers`). */
interface Report {
  server: string;
  folder: string;
  tools: number;
  excluded: readonly { name: string; reason: string }[];
  /** Why the folder was (or, with --check, would be) rewritten; absent when it was up to date. */
  stale?: string;
  written: string[];
  removed: string[];
}

interface Problem {
  server: string;
  kind: string;
  message: string;
}

const GENERATOR = `autos-mcp ${PACKAGE_VERSION}`;

export async function typesTree(parsed: TreeArgs & { tree: string }, io: CliIo): Promise<number> {
  const codegen = await import('../../codegen/index.js');
  const compile = await codegen.loadCompiler();
  const dir = path.resolve(parsed.tree);
  const { jobs, problems } = await findJobs(parsed, io);
  const reports: Report[] = [];
  for (const { server, target } of jobs) {
    const folder = path.join(dir, codegen.serverFolder(server));
    try {
      const report = await withServer(target, io, async (client) => {
        const list = await client.listToolsDetailed();
        const stale = codegen.staleness(folder, list.listDigest, GENERATOR);
        const base = {
          server,
          folder,
          tools: list.tools.length,
          excluded: list.excluded,
          written: [],
          removed: [],
        };
        if (stale === undefined || parsed.check)
          return { ...base, ...(stale === undefined ? {} : { stale }) };
        const tools = list.tools.flatMap((tool) => {
          const digest = Object.hasOwn(list.digests, tool.name) ? list.digests[tool.name] : undefined;
          return digest === undefined ? [] : [{ tool, digest }];
        });
        const input = {
          tools,
          excluded: list.excluded,
          server: client.serverInfo,
          generator: GENERATOR,
          serverName: server,
          listDigest: list.listDigest,
        };
        const files = await withoutVerbose(() => codegen.generateTree(input, compile));
        const wrote = codegen.writeTree(folder, files, { generator: GENERATOR, listDigest: list.listDigest });
        return { ...base, stale, ...wrote };
      });
      reports.push(report);
    } catch (error) {
      problems.push({ server, kind: isMcpError(error) ? error.kind : 'failure', message: messageOf(error) });
    }
  }
  print(parsed, io, dir, reports, problems);
  if (problems.length > 0) return EXIT.failure;
  return parsed.check && reports.some((r) => r.stale !== undefined) ? EXIT.toolError : EXIT.ok;
}

/** The servers to generate: the target's, or with none every configured server. */
async function findJobs(parsed: TreeArgs, io: CliIo): Promise<{ jobs: Job[]; problems: Problem[] }> {
  const none =
    parsed.positionals.length === 0 &&
    parsed.serverCommand === undefined &&
    parsed.settingsName === undefined;
  if (!none) {
    const target = await resolveTarget(parsed, io);
    if (target.words.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(terminalSafe(target.words[0] ?? ''))}`);
    const server = parsed.name ?? target.configuredName ?? parsed.settingsName ?? derivedName(target.config);
    return { jobs: [{ server, target }], problems: [] };
  }
  if (parsed.name !== undefined)
    throw new UsageError(
      '--name names the folder of a URL or command target; with no target every configured server gets its own name',
    );
  const loaded = await load(parsed);
  const names = Object.keys(loaded.servers).sort();
  if (names.length === 0)
    throw new UsageError(
      'no configured server found: give a target (a configured name, a URL, or -- command) after --tree DIR',
    );
  const { resolveServer } = await import('../../servers/index.js');
  const jobs: Job[] = [];
  const problems: Problem[] = [];
  for (const server of names) {
    try {
      const configured = loaded.servers[server];
      if (configured === undefined) continue;
      const config = withCommandLine(resolveServer(configured, { trustProject: parsed.trustProject }), {
        ...parsed,
        command: 'types',
        positionals: [],
      });
      jobs.push({ server, target: { config } });
    } catch (error) {
      problems.push({ server, kind: isMcpError(error) ? error.kind : 'config', message: messageOf(error) });
    }
  }
  return { jobs, problems };
}

const RUNNERS =
  /^(node|npx|npm|pnpm|yarn|bunx?|deno|uvx?|python3?|pipx|docker|podman|java|go|cargo|ruby|php|dotnet)$/;
const GENERIC = /^(index|main|server|cli|dist|build|lib|bin|src|out|run|start|stdio)$/i;
const HOST_WORDS = new Set(['www', 'mcp', 'api']);

/**
 * A folder name for a URL or command target typed without `--name`: from the host (`https://mcp.linear.app/sse`
 * → `linear`), or the package or script the command runs (`npx -y @scope/server-memory` → `server-memory`,
 * `node …/server-everything/dist/index.js` → `server-everything`). Never from the server's own words.
 */
export function derivedName(config: ServerConfig): string {
  if ('url' in config && typeof config.url === 'string') {
    let host: string;
    try {
      host = new URL(config.url).hostname;
    } catch {
      return 'server';
    }
    const labels = host.split('.').filter((label) => label !== '' && !HOST_WORDS.has(label));
    if (labels.length > 1 && !/^\d+$/.test(labels.at(-1) ?? '')) labels.pop();
    return labels.join('_') || 'server';
  }
  const words = 'command' in config ? [config.command, ...(config.args ?? [])] : [];
  const candidates = words.filter(
    (word, i) => !word.startsWith('-') && !(i === 0 && RUNNERS.test(path.basename(word))),
  );
  const chosen = candidates.find((word) => /[/\\@]|\.(m?js|cjs|ts|py)$/.test(word)) ?? candidates[0];
  if (chosen === undefined) return 'server';
  const parts = chosen
    .replace(/@[^/@]*$/, '')
    .split(/[/\\]+/)
    .map((part) => part.replace(/\.(m?js|cjs|ts|py|exe)$/, ''))
    .filter((part) => part !== '' && !part.startsWith('@'));
  return parts.reverse().find((part) => !GENERIC.test(part)) ?? parts[0] ?? 'server';
}

function print(parsed: TreeArgs, io: CliIo, dir: string, reports: Report[], problems: Problem[]): void {
  if (parsed.json) {
    io.stdout.write(`${JSON.stringify({ dir, check: parsed.check, servers: reports, problems })}\n`);
    return;
  }
  for (const r of reports) {
    const where = terminalSafe(r.folder);
    if (r.stale === undefined) io.stderr.write(`${where} is up to date (${count(r.tools, 'tool')})\n`);
    else if (parsed.check) io.stderr.write(`${where} is stale: ${r.stale}\n`);
    else {
      const removed = r.removed.length > 0 ? `, removed ${count(r.removed.length, 'file')}` : '';
      io.stderr.write(`wrote ${count(r.tools, 'tool')} to ${where}${removed}\n`);
    }
    if (r.excluded.length > 0)
      io.stderr.write(
        `warning: ${count(r.excluded.length, 'tool')} of ${terminalSafe(r.server)} left out (named in index.ts)\n`,
      );
  }
  for (const p of problems) io.stderr.write(`${terminalSafe(p.server)}: ${terminalSafe(p.message)}\n`);
}

function count(n: number, what: string): string {
  return n === 1 ? `1 ${what}` : `${n} ${what}s`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `fn` with `VERBOSE` unset: the generator library prints the schemas it works on when it is set, and
 * schemas are server text that must not reach the terminal unsanitized.
 */
export async function withoutVerbose<T>(fn: () => Promise<T>): Promise<T> {
  const verbose = process.env['VERBOSE'];
  delete process.env['VERBOSE'];
  try {
    return await fn();
  } finally {
    if (verbose !== undefined) process.env['VERBOSE'] = verbose;
  }
}
