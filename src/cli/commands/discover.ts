/** `autos-mcp discover <target>`: what the server says about itself. */
import { defineCommand } from '../command.js';
import { resolveTarget, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { formatDiscover } from '../format.js';
import { TARGET_HELP } from '../help.js';
import { TARGET_OPTIONS } from '../options.js';
import { UsageError } from '../usage-error.js';

export const discoverCommand = defineCommand({
  name: 'discover',
  usage: ['[options] <target>'],
  summary: 'what the server says about itself',
  about: `Shows the protocol version in use, server info, capabilities and instructions (instructions are data
from the server, shown as is).
${TARGET_HELP}`,
  options: TARGET_OPTIONS,
  target: 'server',
  async run(args, io) {
    const target = await resolveTarget(args, io);
    if (target.words.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(target.words[0])}`);
    return withServer(target, io, async (client) => {
      const facts = {
        protocolVersion: client.protocolVersion,
        transport: client.transport,
        ...(await client.discover()),
      };
      io.stdout.write(args.json ? `${JSON.stringify(facts)}\n` : formatDiscover(facts));
      return EXIT.ok;
    });
  },
});
