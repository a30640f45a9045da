/** `autos-mcp prompt <name> [key=value…] <target>`: one prompt's messages, with string arguments. */
import { defineCommand } from '../command.js';
import { resolveTarget, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { TARGET_HELP } from '../help.js';
import { TARGET_OPTIONS } from '../options.js';
import { formatPrompt } from '../resource-text.js';
import { UsageError } from '../usage-error.js';

export const promptCommand = defineCommand({
  name: 'prompt',
  usage: ['[options] <name> [key=value...] <target>'],
  synopsis: '<name> [key=value...] <target>',
  summary: "get one of the server's prompts",
  about: `Gets a prompt by its name (as autos-mcp prompts lists it), with its arguments as key=value words
(every value is a string). Each message is printed after its role; binary contents are written to
private files (mode 0600), one line each.
--json prints {"description"?, "messages", "excluded"}.
${TARGET_HELP}
Example: autos-mcp prompt args-prompt city=Lyon -- npx -y @modelcontextprotocol/server-everything`,
  options: TARGET_OPTIONS,
  target: 'server',
  async run(args, io) {
    const target = await resolveTarget(args, io);
    const [name, ...words] = target.words;
    if (name === undefined)
      throw new UsageError('prompt needs a prompt name: autos-mcp prompt <name> <target>');
    const values: Record<string, string> = Object.create(null); // a key named __proto__ stays a key
    for (const word of words) {
      const at = word.indexOf('=');
      if (at <= 0) throw new UsageError(`expected key=value, got ${JSON.stringify(word.slice(0, 60))}`);
      values[word.slice(0, at)] = word.slice(at + 1);
    }
    return withServer(target, io, async (client) => {
      const got = await client.getPrompt(name, values);
      io.stdout.write(args.json ? `${JSON.stringify(got)}\n` : await formatPrompt(got, io));
      return EXIT.ok;
    });
  },
});
