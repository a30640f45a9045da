/** `autos-mcp resources <target>`: every resource and resource template of the server (all pages). */
import { RpcError } from '../../errors/index.js';
import { defineCommand } from '../command.js';
import { resolveTarget, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { TARGET_HELP } from '../help.js';
import { TARGET_OPTIONS } from '../options.js';
import { formatResources } from '../resource-text.js';
import { UsageError } from '../usage-error.js';

const METHOD_NOT_FOUND = -32601;

export const resourcesCommand = defineCommand({
  name: 'resources',
  usage: ['[options] <target>'],
  summary: "list the server's resources and resource templates",
  about: `Lists every resource (all pages): its uri, name, MIME type and description; then every resource
template. Entries that break the schema are listed as left out, with the reason.
--json prints {"resources", "resourceTemplates", "excluded"}.
${TARGET_HELP}
Example: autos-mcp resources -- npx -y @modelcontextprotocol/server-everything`,
  options: TARGET_OPTIONS,
  target: 'server',
  async run(args, io) {
    const target = await resolveTarget(args, io);
    if (target.words.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(target.words[0])}`);
    return withServer(target, io, async (client) => {
      const list = await client.listResources();
      // A server with resources but no templates may not know the method at all (-32601): no templates.
      const templates = await client.listResourceTemplates().catch((error: unknown) => {
        if (error instanceof RpcError && error.code === METHOD_NOT_FOUND)
          return { resourceTemplates: [], excluded: [] };
        throw error;
      });
      io.stdout.write(
        args.json
          ? `${JSON.stringify({
              resources: list.resources,
              resourceTemplates: templates.resourceTemplates,
              excluded: [...list.excluded, ...templates.excluded],
            })}\n`
          : formatResources(list, templates),
      );
      return EXIT.ok;
    });
  },
});
