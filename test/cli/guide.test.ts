/**
 * `autos-mcp guide` names commands and options an agent will type: each must exist in the command table,
 * with that option, so the guide cannot drift from the CLI.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command } from '../../src/cli/command.js';
import { guideText } from '../../src/cli/commands/guide.js';
import { GLOBAL_OPTIONS } from '../../src/cli/options.js';
import { COMMANDS } from '../../src/cli/table.js';
import { PACKAGE_VERSION } from '../../src/version.js';
import { runMain } from './in-process.js';

/** Every `autos-mcp <command> …` the guide shows, with the options on the same line. */
function namedCommands(text: string): Array<{ line: string; command: string; options: string[] }> {
  const found: Array<{ line: string; command: string; options: string[] }> = [];
  for (const line of text.split('\n')) {
    for (const match of line.matchAll(/autos-mcp ([a-z-]+)((?: [^()]*?)?)(?=$| ?\(|\)| or |,|;)/g)) {
      const command = match[1] ?? '';
      if (/^\d/.test(command)) continue;
      const options = [...(match[2] ?? '').matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);
      found.push({ line, command, options });
    }
  }
  return found;
}

function optionNames(command: Command): Set<string> {
  const names = new Set<string>();
  for (const option of [...Object.values(command.options), ...Object.values(GLOBAL_OPTIONS)])
    for (const name of option.names) names.add(name);
  return names;
}

test('every command and option the guide names exists in the command table', () => {
  const text = guideText();
  const named = namedCommands(text);
  const commands = new Set(named.map((n) => n.command));
  // The guide is about the code-mode path: these must all be there.
  for (const expected of ['search', 'describe', 'call', 'run', 'servers', 'types'])
    assert.ok(commands.has(expected), `the guide names autos-mcp ${expected}`);
  for (const { line, command, options } of named) {
    const found = COMMANDS.find((c) => c.name === command);
    assert.ok(found, `"${line.trim()}" names autos-mcp ${command}, which is not a command`);
    const known = optionNames(found);
    for (const option of options)
      assert.ok(known.has(option), `"${line.trim()}": ${command} has no option ${option}`);
  }
});

test('the guide names its version and is what `autos-mcp guide` prints', async () => {
  assert.match(guideText(), new RegExp(`^autos-mcp ${PACKAGE_VERSION.replaceAll('.', '\\.')} `));
  const run = await runMain(['guide']);
  assert.equal(run.code, 0);
  assert.equal(run.stdout, guideText());
});
