/**
 * `autos-mcp search <query>`: the tools of every configured server, ranked for the query (BM25F over
 * names, descriptions and parameters; see docs/catalog.md), one line per hit, or with `--json` exactly
 * `{"results": [{"ref", "server", "tool", "description"?, "inputSchema"?, "score"}], "problems": [...]}`.
 * Exit 0 when some server answered; 3 when none did (every one a problem, or none configured).
 */
import type { CatalogSearch, SearchDetail, SearchHit } from '../../catalog/index.js';
import { type Args, defineCommand } from '../command.js';
import { withCatalog } from '../configured-catalog.js';
import { safe } from '../configured-target.js';
import { EXIT } from '../exit.js';
import type { CliIo } from '../io.js';
import { CONFIGURED_OPTIONS, single, wholeNumber } from '../options.js';
import { UsageError } from '../usage-error.js';

const SEARCH_OPTIONS = {
  ...CONFIGURED_OPTIONS,
  limit: single(['--limit'], '<n>', 'most hits (1 to 1000, default 10)', wholeNumber('--limit', 1, 1_000)),
  detail: single(
    ['--detail'],
    '<names|descriptions|full>',
    'what each hit shows (default descriptions; full adds the input schema)',
    (text): SearchDetail => {
      if (text !== 'names' && text !== 'descriptions' && text !== 'full')
        throw new UsageError('--detail takes names, descriptions or full');
      return text;
    },
  ),
} as const;

export const searchCommand = defineCommand({
  name: 'search',
  usage: [
    '<query> [--limit N] [--detail names|descriptions|full] [--json] [--config FILE] [--trust-project]',
  ],
  synopsis: '<query>',
  summary: 'search the tools of every configured server',
  about: `Ranks the tools of every configured server (autos-mcp servers lists them) for the query: words of
tool names (getUserRepos is get, user, repos), titles, descriptions and parameters; the last word also
matches as a prefix. Each server starts when searched and is closed at the end; one that cannot start
or answer within 10 s is a problem on stderr, and the others still answer.
Each hit is a ref, server.tool: autos-mcp describe <ref> shows it whole, autos-mcp call <ref> calls it.
--json prints {"results": [{"ref", "server", "tool", "description"?, "inputSchema"?, "score"}],
"problems": [{"server", "kind", "message"}]}. Exit code 0 when some server answered, 3 when none did.
Example: autos-mcp search "create an issue" --limit 5`,
  options: SEARCH_OPTIONS,
  target: 'none',
  run: search,
});

async function search(args: Args<typeof SEARCH_OPTIONS>, io: CliIo): Promise<number> {
  const query = args.positionals.join(' ').trim();
  if (query === '') throw new UsageError('search needs a query: autos-mcp search "what the tool does"');
  const detail = args.detail ?? 'descriptions';
  return withCatalog(args, io, async (servers) => {
    const found = await servers.search(query, { limit: args.limit ?? 10, detail });
    const answered = servers.servers.length - found.problems.length;
    if (args.json) io.stdout.write(`${JSON.stringify(jsonOf(found))}\n`);
    else {
      for (const hit of found.results) io.stdout.write(`${lineOf(hit, detail)}\n`);
      for (const problem of found.problems)
        io.stderr.write(
          `problem: server ${safe(problem.server, 100)} (${problem.kind}): ${safe(problem.message, 400)}\n`,
        );
      if (servers.servers.length === 0)
        io.stderr.write(
          'no MCP servers are configured here (autos-mcp servers --help says where they are read)\n',
        );
      else if (answered > 0 && found.results.length === 0) io.stderr.write('no tool matches the query\n');
    }
    return answered > 0 ? EXIT.ok : EXIT.failure;
  });
}

/** The `--json` document: exactly these fields. */
function jsonOf(found: CatalogSearch): unknown {
  return {
    results: found.results.map((hit) => ({
      ref: hit.ref,
      server: hit.server,
      tool: hit.tool,
      ...(hit.description === undefined ? {} : { description: hit.description }),
      ...(hit.inputSchema === undefined ? {} : { inputSchema: hit.inputSchema }),
      score: hit.score,
    })),
    problems: found.problems.map(({ server, kind, message }) => ({ server, kind, message })),
  };
}

/** One terminal-safe line: the ref, then (but for names) the description's start, then (full) the parameters. */
function lineOf(hit: SearchHit, detail: SearchDetail): string {
  const ref = safe(hit.ref, 160);
  if (detail === 'names') return ref;
  const text = hit.description ?? hit.title;
  const about = text === undefined ? '' : `  ${safe(text, 160)}`;
  const properties = hit.inputSchema?.['properties'];
  const parameters =
    detail === 'full' && typeof properties === 'object' && properties !== null
      ? `  (${safe(Object.keys(properties).slice(0, 20).join(', '), 200)})`
      : '';
  return `${ref}${parameters}${about}`;
}
