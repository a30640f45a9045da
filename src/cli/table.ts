/**
 * The command table: every `autos-mcp` command, in the order the overview lists them. A new command is one
 * `commands/<name>.ts` file (see `command.ts`) and one entry here; the parser, the option refusals and the
 * help follow from it.
 */
import type { Command } from './command.js';
import { authCommand } from './commands/auth.js';
import { callCommand } from './commands/call.js';
import { demoCommand } from './commands/demo.js';
import { demoServerCommand } from './commands/demo-server.js';
import { describeCommand } from './commands/describe.js';
import { discoverCommand } from './commands/discover.js';
import { guideCommand } from './commands/guide.js';
import { loginCommand } from './commands/login.js';
import { logoutCommand } from './commands/logout.js';
import { pinCommand } from './commands/pin.js';
import { promptCommand } from './commands/prompt.js';
import { promptsCommand } from './commands/prompts.js';
import { readCommand } from './commands/read.js';
import { resourcesCommand } from './commands/resources.js';
import { runCommand } from './commands/run.js';
import { searchCommand } from './commands/search.js';
import { serversCommand } from './commands/servers.js';
import { settingsCommand } from './commands/settings.js';
import { skillCommand } from './commands/skill.js';
import { skillsCommand } from './commands/skills.js';
import { toolsCommand } from './commands/tools.js';
import { typesCommand } from './commands/types.js';

export const COMMANDS: readonly Command[] = [
  toolsCommand,
  callCommand,
  discoverCommand,
  resourcesCommand,
  readCommand,
  promptsCommand,
  promptCommand,
  skillsCommand,
  skillCommand,
  searchCommand,
  describeCommand,
  runCommand,
  typesCommand,
  demoCommand,
  demoServerCommand,
  loginCommand,
  logoutCommand,
  authCommand,
  settingsCommand,
  serversCommand,
  pinCommand,
  guideCommand,
];
