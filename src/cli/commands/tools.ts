/** `autos-mcp tools <target>`: every tool of the server (all pages), with its parameters. */
import type { ToolList } from '../../client/index.js';
import { APP_ONLY_REASON, uiResourceUri } from '../../protocol/apps-ui.js';
import { defineCommand } from '../command.js';
import { resolveTarget, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { TARGET_HELP } from '../help.js';
import { TARGET_OPTIONS } from '../options.js';
import { formatToolList } from '../tool-help.js';
import { UsageError } from '../usage-error.js';

export const toolsCommand = defineCommand({
  name: 'tools',
  usage: ['[options] <target>'],
  summary: "list the server's tools",
  about: `Lists every tool (all pages) with its parameters: type, required or optional, default, description.
Tools with malformed definitions are listed as left out, with the reason; MCP Apps app-only tools as
app-only (callable by name, never offered to a model; with --json also under "excluded", with the reason).
${TARGET_HELP}
Example: autos-mcp tools -- autos-mcp demo-server`,
  options: TARGET_OPTIONS,
  target: 'server',
  async run(args, io) {
    const target = await resolveTarget(args, io);
    if (target.words.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(target.words[0])}`);
    return withServer(target, io, async (client) => {
      const list = await client.listToolsDetailed();
      io.stdout.write(args.json ? jsonOf(list) : formatToolList(list.tools, list.excluded, list.appOnly));
      return EXIT.ok;
    });
  },
});

/**
 * The `--json` document: the list, with each MCP Apps app-only tool also under `excluded` (it is kept from
 * models) with the app-only reason and its UI resource, `resourceUri`; `appOnly` keeps the whole definitions.
 */
function jsonOf(list: ToolList): string {
  const appOnly = list.appOnly.map((tool) => {
    const resourceUri = uiResourceUri(tool);
    return {
      name: tool.name,
      reason: APP_ONLY_REASON,
      ...(resourceUri === undefined ? {} : { resourceUri }),
    };
  });
  return `${JSON.stringify({ ...list, excluded: [...list.excluded, ...appOnly] })}\n`;
}
