/**
 * `autos-mcp describe <server.tool>`: one tool of a configured server, whole: its description, each
 * parameter, how to call it, and its digest (what `autos-mcp pin` records); `--json` prints the
 * definition with `digest`. An unknown ref is a usage error naming the closest ones.
 */
import { isMcpError } from '../../errors/index.js';
import { type Args, defineCommand } from '../command.js';
import { withCatalog } from '../configured-catalog.js';
import { safe } from '../configured-target.js';
import { EXIT } from '../exit.js';
import type { CliIo } from '../io.js';
import { CONFIGURED_OPTIONS } from '../options.js';
import { formatToolHelp } from '../tool-help.js';
import { UsageError } from '../usage-error.js';

export const describeCommand = defineCommand({
  name: 'describe',
  usage: ['<server.tool> [--json] [--config FILE] [--trust-project]'],
  synopsis: '<server.tool>',
  summary: 'one tool of a configured server, whole, with its digest',
  about: `Shows a tool of a configured server by its ref, server.tool (as autos-mcp search prints it): its
description, each parameter, how to call it, and its digest (sha256 of the definition, what autos-mcp
pin records). Only that server is started, and it is closed at the end.
--json prints {"ref", "server", "tool", "title"?, "description"?, "inputSchema", "outputSchema"?,
"annotations"?, "digest"}.
Example: autos-mcp describe memory.create_entities`,
  options: CONFIGURED_OPTIONS,
  target: 'none',
  run: describe,
});

async function describe(args: Args<typeof CONFIGURED_OPTIONS>, io: CliIo): Promise<number> {
  const [ref, extra] = args.positionals;
  if (ref === undefined) throw new UsageError('describe needs a ref: autos-mcp describe server.tool');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safe(extra, 60))}`);
  return withCatalog(args, io, async (servers) => {
    const tool = await servers.describe(ref).catch((error: unknown) => {
      // A ref that names no tool is a mistake on the command line, as `call` treats an unknown tool.
      if (isMcpError(error) && error.kind === 'invalid_tool')
        throw new UsageError(error.message, { details: { ref: safe(ref, 200) }, help: false });
      throw error;
    });
    if (args.json) io.stdout.write(`${JSON.stringify(tool)}\n`);
    else {
      const { ref: _ref, server: _server, tool: name, digest, ...definition } = tool;
      io.stdout.write(formatToolHelp({ name, ...definition }, tool.ref));
      io.stdout.write(`Digest: ${safe(digest, 80)}\n`);
    }
    return EXIT.ok;
  });
}
