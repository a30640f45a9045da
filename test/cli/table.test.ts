/**
 * The command table drives the CLI: the parser reads each command's declared options (one arity per
 * option name), an option given to a command that does not declare it is refused by naming the commands
 * that do, each command's `run` gets typed arguments, and the help is generated from the same entries.
 * Run in this process through `main(argv, io)`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Command, defineCommand } from '../../src/cli/command.js';
import { commandHelp, overview } from '../../src/cli/help.js';
import { flag, single } from '../../src/cli/options.js';
import { allCommands, bind, findCommand, ownersOf, tokenize } from '../../src/cli/parse.js';
import { COMMANDS } from '../../src/cli/table.js';
import { runMain } from './in-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the command table', () => {
  test('every option name takes a value in every command that declares it, or in none', () => {
    const arity = new Map<string, Set<boolean>>();
    for (const command of allCommands(COMMANDS))
      for (const option of Object.values(command.options))
        for (const name of option.names)
          arity.set(name, (arity.get(name) ?? new Set()).add(option.value !== undefined));
    const mixed = [...arity].filter(([, kinds]) => kinds.size > 1).map(([name]) => name);
    assert.deepEqual(mixed, []);
  });

  test('an option of another command is refused by naming the commands that declare it', async () => {
    const cases: Array<[string[], string]> = [
      [['servers', '--out', 'x.ts'], '--out is an option of skill and types'],
      [['tools', '--device', 'https://h.example/mcp'], '--device is an option of login'],
      [['call', '--forget-registration'], '--forget-registration is an option of logout'],
      [['tools', '--reveal'], '--reveal is an option of settings get'],
      [['settings', 'get', 'x', '--auth-token'], '--auth-token is an option of settings set'],
      [
        ['login', '--settings', 'x', 'https://h.example/mcp'],
        '--settings is an option of tools, call, discover, resources, read, prompts, prompt, skills, skill and types',
      ],
      [
        ['logout', '--config', 'f.json'],
        '--config is an option of tools, call, discover, resources, read, prompts, prompt, skills, skill, search, describe, run, types, servers and pin',
      ],
      [
        ['servers', '--plaintext-file'],
        '--plaintext-file is an option of tools, call, discover, resources, read, prompts, prompt, skills, skill, types and settings',
      ],
      [['demo', '--timeout', '5'], 'demo takes no option --timeout'],
      [['demo-server', '--json'], 'demo-server takes no option --json'],
      [['demo', 'extra'], 'demo takes no argument (got "extra")'],
      [['login', 'https://h.example/mcp', '--', 'node', 'server.js'], 'login takes nothing after --'],
    ];
    for (const [argv, message] of cases) {
      const run = await runMain(argv);
      assert.equal(run.code, 2, argv.join(' '));
      assert.equal(run.stderr.split('\n')[0], message, argv.join(' '));
      // The help that follows is the command's own.
      assert.match(run.stderr, new RegExp(`\\n\\nUsage: autos-mcp ${argv[0]}`), argv.join(' '));
    }
  });

  test('with --json a refusal is also a usage document on stdout', async () => {
    const run = await runMain(['servers', '--json', '--out', 'x.ts']);
    assert.equal(run.code, 2);
    assert.deepEqual(JSON.parse(run.stdout), {
      error: { kind: 'usage', message: '--out is an option of skill and types' },
    });
  });

  test('ownersOf names a group by its own name only when all its subcommands take the option', () => {
    assert.equal(
      ownersOf('--plaintext-file', COMMANDS),
      'tools, call, discover, resources, read, prompts, prompt, skills, skill, types and settings',
    );
    assert.equal(ownersOf('--reveal', COMMANDS), 'settings get');
  });

  test('a new command is one entry: parsed, typed and helped from its declaration', async () => {
    const seen: unknown[] = [];
    const greet = defineCommand({
      name: 'greet',
      usage: ['[--loud] [--times n] <name>'],
      summary: 'say hello',
      about: 'Greets someone.',
      options: {
        loud: flag(['--loud'], 'shout'),
        times: single(['--times'], '<n>', 'how many times', Number),
      },
      target: 'none',
      async run(args) {
        // Typed from the declarations: a flag is a boolean, --times a number.
        const loud: boolean = args.loud;
        const times: number | undefined = args.times;
        seen.push({ loud, times, words: args.positionals });
        return 0;
      },
    });
    const erased: Command = greet;
    const table: readonly Command[] = [...COMMANDS, erased];
    const tokens = tokenize(['greet', '--times=2', 'ada', '--loud'], table);
    const found = findCommand(table, tokens.words);
    assert.equal(found?.command, greet);
    const args = bind(erased, tokens, found?.positionals ?? [], table);
    assert.equal(
      await erased.run?.(args, { stdout: { write: () => true }, stderr: { write: () => true } }),
      0,
    );
    assert.deepEqual(seen, [{ loud: true, times: 2, words: ['ada'] }]);
    // Its options are refused elsewhere by its name; the help and the overview list it.
    assert.throws(() => bind(COMMANDS[0] as Command, tokenize(['tools', '--loud'], table), [], table), {
      message: '--loud is an option of greet',
    });
    assert.match(
      commandHelp(greet, table),
      /^Usage: autos-mcp greet \[--loud\] \[--times n\] <name>\n\nGreets someone\.\n\nOptions:\n {2}--loud .*shout\n {2}--times <n> .*how many times/,
    );
    assert.match(overview(table), /\n {2}autos-mcp greet \[--loud\] \[--times n\] <name> +say hello\n/);
  });

  test('the help is generated from the table: every command and each of its options', async () => {
    const main = await runMain(['--help']);
    assert.equal(main.code, 0);
    for (const command of COMMANDS) {
      assert.match(main.stdout, new RegExp(`\\n  autos-mcp ${command.name}\\b`), command.name);
      const help = await runMain([command.name, '--help']);
      assert.equal(help.code, 0, command.name);
      assert.equal(help.stdout, (await runMain(['help', command.name])).stdout, command.name);
      for (const sub of allCommands([command]))
        for (const option of Object.values(sub.options))
          assert.ok(
            help.stdout.includes(`  ${option.names[0]}`),
            `${command.name} --help lists ${option.names[0]}`,
          );
    }
  });
});

/** The src/cli modules each module imports (static imports, type-only ones included). */
function importGraph(): Map<string, string[]> {
  const dir = path.join(ROOT, 'src/cli');
  const files: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at)) {
      const full = path.join(at, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith('.ts')) files.push(full);
    }
  };
  walk(dir);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)\b[^'"]*?\bfrom\s+'(\.[^']+)'/gm)]
      .map((m) => path.resolve(path.dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')))
      .filter((target) => files.includes(target));
    graph.set(
      path.relative(dir, file),
      targets.map((target) => path.relative(dir, target)),
    );
  }
  return graph;
}

describe('imports in src/cli', () => {
  test('form no circle: main → table → commands → shared helpers', () => {
    const graph = importGraph();
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    assert.deepEqual(circles, []);
  });

  test('io.ts, command.ts and usage-error.ts are leaves; only main.ts imports the table', () => {
    const graph = importGraph();
    assert.deepEqual(graph.get('io.ts'), []);
    assert.deepEqual(graph.get('usage-error.ts'), []);
    assert.deepEqual(graph.get('command.ts'), ['io.ts']);
    const importers = [...graph].filter(([, targets]) => targets.includes('table.ts')).map(([file]) => file);
    assert.deepEqual(importers, ['main.ts']);
  });
});
