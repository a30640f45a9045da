/**
 * `autos-mcp types <target> [--out file.ts]`: a typed TypeScript module from a live server's tool list
 * (`src/codegen/`). The generator library is an optional peer dependency, loaded before anything is
 * started so a missing one costs no server start. The file is written whole or not at all.
 */
import path from 'node:path';
import { PACKAGE_VERSION } from '../../version.js';
import { type Args, defineCommand } from '../command.js';
import { resolveTarget, withServer } from '../connection.js';
import type { CliIo } from '../io.js';
import { nonEmpty, single, TARGET_OPTIONS } from '../options.js';
import { terminalSafe } from '../tool-help.js';
import { UsageError } from '../usage-error.js';
import { TREE_OPTIONS, typesTree, withoutVerbose } from './types-tree.js';

const TYPES_OPTIONS = {
  out: single(
    ['--out'],
    'file.ts',
    'write the module to this file (default: stdout)',
    nonEmpty('--out needs a file name'),
  ),
  ...TREE_OPTIONS,
  ...TARGET_OPTIONS,
} as const;

export const typesCommand = defineCommand({
  name: 'types',
  usage: ['[--out file.ts] [options] <target>', '--tree dir [--check] [--name server] [options] [<target>]'],
  synopsis: '[--out file.ts | --tree dir] <target>',
  summary: "a typed TypeScript module of the server's tools",
  about: `Writes a TypeScript module from the server's tools/list: an input type per tool, an output type where
the tool declares an outputSchema, JSDoc from titles and descriptions, each tool's definition digest,
and a typed binding: bind(client) over a connected client, or withTools(config, async (tools) => …),
which pins every tool to the definition it was generated from (a changed tool is refused, not called).
Without --out the module goes to stdout. The module imports only from autos-mcp.
With --tree dir: one file per tool in dir/<server>/ (its types, JSDoc and one typed function) and an
index.ts re-exporting them with the binding; rewritten only when the tool list changed (files of tools
that are gone removed; nothing the generator did not write is touched); --check writes nothing and exits 1
when a folder is stale. With no target, every configured server gets a folder of its configured name.
Needs json-schema-to-typescript (an optional peer dependency): npm install --save-dev json-schema-to-typescript@16
Example: autos-mcp types --out demo-tools.ts -- npx autos-mcp demo-server
Example: autos-mcp types --tree servers --name demo -- npx autos-mcp demo-server`,
  options: TYPES_OPTIONS,
  target: 'server',
  run: types,
});

async function types(parsed: Args<typeof TYPES_OPTIONS>, io: CliIo): Promise<number> {
  if (parsed.tree !== undefined) {
    if (parsed.out !== undefined) throw new UsageError('--out and --tree are two outputs: give one');
    return typesTree({ ...parsed, tree: parsed.tree }, io);
  }
  if (parsed.check || parsed.name !== undefined)
    throw new UsageError(`${parsed.check ? '--check' : '--name'} goes with --tree DIR`);
  // Loaded first: a missing library is reported before any server is started.
  const { generateModule, loadCompiler, writeWhole } = await import('../../codegen/index.js');
  const compile = await loadCompiler();
  const target = await resolveTarget(parsed, io);
  if (target.words.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(terminalSafe(target.words[0] ?? ''))}`);
  const out = parsed.out === undefined ? undefined : path.resolve(parsed.out);
  const { source, names, excluded, appOnly } = await withServer(target, io, async (client) => {
    const list = await client.listToolsDetailed();
    const tools = list.tools.flatMap((tool) => {
      const digest = Object.hasOwn(list.digests, tool.name) ? list.digests[tool.name] : undefined;
      return digest === undefined ? [] : [{ tool, digest }];
    });
    const text = await withoutVerbose(() =>
      generateModule(
        {
          tools,
          excluded: list.excluded,
          server: client.serverInfo,
          generator: `autos-mcp ${PACKAGE_VERSION}`,
        },
        compile,
      ),
    );
    const appOnly = list.appOnly.map((t) => t.name);
    return { source: text, names: tools.map((t) => t.tool.name), excluded: list.excluded, appOnly };
  });
  if (out !== undefined) writeWhole(out, source, 'autos-mcp types', terminalSafe(out));
  else if (!parsed.json) io.stdout.write(source);
  if (parsed.json) {
    const document = { tools: names, excluded, appOnly, ...(out === undefined ? { source } : { out }) };
    io.stdout.write(`${JSON.stringify(document)}\n`);
  } else if (out !== undefined) {
    const count = names.length === 1 ? '1 tool' : `${names.length} tools`;
    io.stderr.write(`wrote ${count} to ${terminalSafe(out)}\n`);
  }
  if (excluded.length > 0 && !parsed.json) {
    const count = excluded.length === 1 ? '1 tool was' : `${excluded.length} tools were`;
    io.stderr.write(`warning: ${count} left out (named in the module's header comment)\n`);
  }
  return 0;
}
