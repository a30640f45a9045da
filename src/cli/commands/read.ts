/** `autos-mcp read <uri> <target>`: one resource's contents; binary contents go to private files. */
import { defineCommand } from '../command.js';
import { resolveTarget, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { TARGET_HELP } from '../help.js';
import { TARGET_OPTIONS } from '../options.js';
import { formatRead } from '../resource-text.js';
import { UsageError } from '../usage-error.js';

export const readCommand = defineCommand({
  name: 'read',
  usage: ['[options] <uri> <target>'],
  synopsis: '<uri> <target>',
  summary: 'read one resource of the server',
  about: `Reads a resource by its uri (as autos-mcp resources lists it). Text is printed (made safe for the
terminal); binary contents are written to private files (mode 0600), one line each: MIME type, size, path.
When the resource's uri is an http(s) URL too, give the server's URL first: read <server-url> <uri>.
--json prints {"contents", "excluded"} as the server sent the contents (blobs in base64).
${TARGET_HELP}
Example: autos-mcp read demo://resource/static/document/architecture.md -- npx -y @modelcontextprotocol/server-everything`,
  options: TARGET_OPTIONS,
  target: 'server',
  async run(args, io) {
    const target = await resolveTarget(args, io);
    const [uri, extra] = target.words;
    if (uri === undefined)
      throw new UsageError('read needs the uri of a resource: autos-mcp read <uri> <target>');
    if (extra !== undefined)
      throw new UsageError(`unexpected argument ${JSON.stringify(extra.slice(0, 60))}`);
    return withServer(target, io, async (client) => {
      const read = await client.readResource(uri);
      io.stdout.write(args.json ? `${JSON.stringify(read)}\n` : await formatRead(read, io));
      return EXIT.ok;
    });
  },
});
