/** `autos-mcp skill <name> --out <dir> <target>`: one skill's files, each verified, written to a new folder. */

import { SKILLS_EXTENSION } from '../../extensions/index.js';
import { defineCommand } from '../command.js';
import { resolveTarget, turningOn, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { TARGET_HELP } from '../help.js';
import { nonEmpty, single, TARGET_OPTIONS } from '../options.js';
import { formatSkillRead, withoutSkillsHint } from '../skill-text.js';
import { UsageError } from '../usage-error.js';

export const skillCommand = defineCommand({
  name: 'skill',
  usage: ['[options] --out <dir> <name|uri> <target>'],
  synopsis: '<name> --out <dir> <target>',
  summary: "write one of the server's skills to a folder",
  about: `Writes a skill's files (by its name, or the uri of its SKILL.md, as autos-mcp skills lists them) to
the folder --out names, which must not exist or be empty. Each file is read with resources/read and written
only once its size and SHA-256 match the skill's manifest; a mismatch, a file the manifest does not list, a
path that would leave the folder, or more than 512 files or 16 MiB fails the command and leaves nothing
behind. A "dynamic" skill cannot be verified and is refused.
--json prints {"skill", "dir", "files"}.
${TARGET_HELP}
Example: autos-mcp skill pdf-tools --out ./skills/pdf-tools https://mcp.example.com/mcp`,
  options: {
    ...TARGET_OPTIONS,
    out: single(
      ['--out'],
      '<dir>',
      'the folder to write the skill to (new or empty)',
      nonEmpty('--out needs a folder'),
    ),
  },
  target: 'server',
  async run(args, io) {
    const target = await resolveTarget(args, io);
    const [name, extra] = target.words;
    if (name === undefined)
      throw new UsageError('skill needs a skill name: autos-mcp skill <name> --out <dir> <target>');
    if (extra !== undefined)
      throw new UsageError(`unexpected argument ${JSON.stringify(extra.slice(0, 60))}`);
    const dir = args.out;
    if (dir === undefined) throw new UsageError('skill needs --out <dir>: the folder to write the skill to');
    return withServer(turningOn(target, SKILLS_EXTENSION), io, async (client) => {
      const read = await client.readSkill(name, { dir }).catch((error: unknown) => {
        throw withoutSkillsHint(error, client.target);
      });
      io.stdout.write(args.json ? `${JSON.stringify(read)}\n` : formatSkillRead(read));
      return EXIT.ok;
    });
  },
});
