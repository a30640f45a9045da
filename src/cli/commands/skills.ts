/** `autos-mcp skills <target>`: every skill the server offers (the `io.modelcontextprotocol/skills` extension). */

import { SKILLS_EXTENSION } from '../../extensions/index.js';
import { defineCommand } from '../command.js';
import { resolveTarget, turningOn, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { TARGET_HELP } from '../help.js';
import { TARGET_OPTIONS } from '../options.js';
import { formatSkills, withoutSkillsHint } from '../skill-text.js';
import { UsageError } from '../usage-error.js';

export const skillsCommand = defineCommand({
  name: 'skills',
  usage: ['[options] <target>'],
  summary: 'list the skills the server offers',
  about: `Lists every skill (skills/list, all pages): its name, the uri of its SKILL.md, how many files it has
(or "dynamic"), and its description. Entries that break the schema are listed as left out, with the reason.
A server without the skills extension answers with an error. Write one skill's files with autos-mcp skill.
--json prints {"skills", "excluded", "ttlMs"?, "cacheScope"?}.
${TARGET_HELP}
Example: autos-mcp skills https://mcp.example.com/mcp`,
  options: TARGET_OPTIONS,
  target: 'server',
  async run(args, io) {
    const target = await resolveTarget(args, io);
    if (target.words.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(target.words[0]?.slice(0, 60))}`);
    return withServer(turningOn(target, SKILLS_EXTENSION), io, async (client) => {
      const list = await client.listSkills().catch((error: unknown) => {
        throw withoutSkillsHint(error, client.target);
      });
      io.stdout.write(args.json ? `${JSON.stringify(list)}\n` : formatSkills(list));
      return EXIT.ok;
    });
  },
});
