/**
 * `autos-mcp search` and `autos-mcp describe` through `main(argv, io)` (in this process) over a temporary
 * config file (`--config`, a project file: `--trust-project` to start its servers): the exact `--json`
 * documents, one terminal-safe line per hit, problems on stderr, the exit codes (0 when some server
 * answered, 3 when none did, 2 for a ref that names nothing), every server closed at the end.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { DEAD, demo, EVERYTHING, HOSTILE } from '../catalog/helpers.js';
import { type Dirs, dirs } from '../servers/helpers.js';
import { runMain } from './in-process.js';

let d: Dirs;
let config: string;
beforeEach(async () => {
  d = dirs();
  config = d.write(
    d.proj,
    'servers.json',
    JSON.stringify({
      mcpServers: { demo: await demo(), everything: EVERYTHING, dead: DEAD, hostile: HOSTILE() },
    }),
  );
});
afterEach(() => d.cleanup());

async function cli(args: string[]) {
  const unset = Object.fromEntries(
    ['XDG_CONFIG_HOME', 'APPDATA', 'CODEX_HOME', 'AUTOS_MCP_TOKEN'].map((key) => [key, undefined]),
  );
  return runMain(args, { cwd: d.proj, env: { ...unset, HOME: d.home } });
}

describe('autos-mcp search', () => {
  test('--json prints exactly results and problems; exit 0 when some server answered', async () => {
    const run = await cli(['search', 'echo', 'text', '--json', '--config', config, '--trust-project']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      results: Record<string, unknown>[];
      problems: Record<string, unknown>[];
    };
    assert.deepEqual(Object.keys(out), ['results', 'problems']);
    assert.equal(out.results[0]?.['ref'], 'demo.echo');
    for (const hit of out.results) {
      const keys = Object.keys(hit);
      assert.ok(
        keys.every((k) => ['ref', 'server', 'tool', 'description', 'score'].includes(k)),
        keys.join(),
      );
    }
    assert.deepEqual(
      out.problems.map((p) => [Object.keys(p).join(), p['server'], p['kind']]),
      [['server,kind,message', 'dead', 'closed']],
    );
    const full = JSON.parse(
      (
        await cli([
          'search',
          'echo',
          '--detail',
          'full',
          '--limit',
          '1',
          '--json',
          '--config',
          config,
          '--trust-project',
        ])
      ).stdout,
    ) as { results: { inputSchema?: { type: string } }[] };
    assert.equal(full.results.length, 1);
    assert.equal(full.results[0]?.inputSchema?.type, 'object');
  });

  test('one terminal-safe line per hit, problems on stderr', async () => {
    const run = await cli(['search', 'paints the terminal', '--config', config, '--trust-project']);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^hostile\.evil.*red +Paints/);
    assert.doesNotMatch(
      run.stdout,
      /[\u0000-\u0008\u000b-\u001f\u007f]/,
      'no control character reaches the terminal',
    );
    assert.match(
      run.stderr,
      /^problem: server dead \(closed\): node exit-at-start\.mjs .*exited during startup/m,
    );
    assert.doesNotMatch(run.stderr, /sk-live/);
    const names = await cli(['search', 'echo', '--detail', 'names', '--config', config, '--trust-project']);
    assert.deepEqual(names.stdout.trimEnd().split('\n').slice(0, 2).sort(), ['demo.echo', 'everything.echo']);
  });

  test('exit 3 when no server answered: untrusted servers are problems and nothing starts', async () => {
    const run = await cli(['search', 'echo', '--json', '--config', config]);
    assert.equal(run.code, 3);
    const out = JSON.parse(run.stdout) as {
      results: unknown[];
      problems: { kind: string; message: string }[];
    };
    assert.deepEqual(out.results, []);
    assert.deepEqual(new Set(out.problems.map((p) => p.kind)), new Set(['untrusted']));
    assert.match(out.problems[0]?.message ?? '', /--trust-project/);
  });

  test('exit 3 and a hint when no server is configured', async () => {
    const empty = d.write(d.proj, 'empty.json', JSON.stringify({ mcpServers: {} }));
    const run = await cli(['search', 'echo', '--config', empty]);
    assert.equal(run.code, 3);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /no MCP servers are configured here/);
  });

  test('usage errors: no query, a bad --limit or --detail', async () => {
    assert.equal((await cli(['search', '--config', config])).code, 2);
    assert.equal((await cli(['search', 'x', '--limit', '0', '--config', config])).code, 2);
    assert.equal((await cli(['search', 'x', '--detail', 'all', '--config', config])).code, 2);
  });
});

describe('autos-mcp describe', () => {
  test('--json prints the definition with its digest; the readable form says how to call it', async () => {
    const run = await cli(['describe', 'demo.echo', '--json', '--config', config, '--trust-project']);
    assert.equal(run.code, 0, run.stderr);
    const tool = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(tool['ref'], 'demo.echo');
    assert.match(String(tool['digest']), /^sha256:[0-9a-f]{64}$/);
    assert.equal((tool['inputSchema'] as { type: string }).type, 'object');
    const human = await cli(['describe', 'demo.echo', '--config', config, '--trust-project']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^Tool echo$/m);
    assert.match(human.stdout, /text: string, required/);
    assert.match(human.stdout, /Call it: autos-mcp call demo\.echo/);
    assert.match(human.stdout, new RegExp(`^Digest: ${String(tool['digest'])}$`, 'm'));
  });

  test('a ref that names nothing is a usage error with the closest names', async () => {
    const run = await cli(['describe', 'demo.ecko', '--config', config, '--trust-project']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /demo has no tool "ecko": did you mean: echo\?/);
    const json = await cli(['describe', 'demo.ecko', '--json', '--config', config, '--trust-project']);
    assert.equal((JSON.parse(json.stdout) as { error: { kind: string } }).error.kind, 'usage');
    assert.equal((await cli(['describe', '--config', config])).code, 2);
  });
});
