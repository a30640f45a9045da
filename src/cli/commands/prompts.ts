/** `autos-mcp prompts <target>`: every prompt of the server (all pages), with its arguments. */
import { defineCommand } from '../command.js';
import { resolveTarget, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { TARGET_HELP } from '../help.js';
import { TARGET_OPTIONS } from '../options.js';
import { formatPrompts } from '../resource-text.js';
import { UsageError } from '../usage-error.js';

export const promptsCommand = defineCommand({
  name: 'prompts',
  usage: ['[options] <target>'],
  summary: "list the server's prompts",
  about: `Lists every prompt (all pages) with its arguments (an optional one ends with ?) and description.
Prompts that break the schema are listed as left out, with the reason.
--json prints {"prompts", "excluded"}.
${TARGET_HELP}
Example: autos-mcp prompts -- npx -y @modelcontextprotocol/server-everything`,
  options: TARGET_OPTIONS,
  target: 'server',
  async run(args, io) {
    const target = await resolveTarget(args, io);
    if (target.words.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(target.words[0])}`);
    return withServer(target, io, async (client) => {
      const list = await client.listPrompts();
      io.stdout.write(args.json ? `${JSON.stringify(list)}\n` : formatPrompts(list));
      return EXIT.ok;
    });
  },
});
