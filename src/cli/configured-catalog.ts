/**
 * The configured servers as one catalog, for `search` and `describe`: read from the config files (or
 * `--config FILE` alone) with the trust rules of every configured target (`--trust-project` for one run),
 * each server started only when the command needs it, all of them closed by `withCatalog` at the end.
 * The files' own problems (a malformed file, an entry left out) are printed on stderr.
 */
import type { Catalog, CatalogOptions } from '../catalog/index.js';
import { load, safe, scopeOf, shownPath } from './configured-target.js';
import type { CliIo } from './io.js';

export interface CatalogLine {
  readonly configFile: string | undefined;
  readonly trustProject: boolean;
  readonly json: boolean;
}

/** Runs `use` over a catalog of the configured servers (with `options`), and closes every server it started. */
export async function withCatalog<T>(
  line: CatalogLine,
  io: CliIo,
  use: (servers: Catalog) => Promise<T>,
  options: Omit<CatalogOptions, 'trustProject'> = {},
): Promise<T> {
  const loaded = await load(line);
  if (!line.json)
    for (const problem of loaded.problems)
      if (problem.entry === undefined)
        io.stderr.write(
          `problem: ${shownPath(problem.file, scopeOf(loaded, problem.file))}${problem.line === undefined ? '' : `:${problem.line}`}: ${safe(problem.message, 400)}\n`,
        );
  const { catalog } = await import('../catalog/index.js');
  const servers = catalog(loaded, { ...options, trustProject: line.trustProject });
  try {
    return await use(servers);
  } finally {
    await servers.close();
  }
}
