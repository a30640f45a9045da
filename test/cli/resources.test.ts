/**
 * `resources`, `read`, `prompts` and `prompt`, run in this process against server-everything (stdio)
 * and a hostile fixture: human and --json output, binary contents to private files, server text made
 * safe for the terminal, usage errors before anything starts.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../catalog/helpers.js';
import { runMain } from './in-process.js';

const EVERYTHING = [
  '--',
  process.execPath,
  path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
  'stdio',
];
const HOSTILE = ['--', process.execPath, path.join(ROOT, 'test/fixtures/hostile-resources.mjs')];
const ESC = '\u001b';

describe('resources and prompts on the command line', () => {
  test('resources lists resources and templates; --json has both', async () => {
    const run = await runMain(['resources', ...EVERYTHING]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /demo:\/\/resource\/static\/document\/architecture\.md {2}architecture\.md {2}text\/markdown/,
    );
    assert.match(
      run.stdout,
      /demo:\/\/resource\/dynamic\/blob\/\{resourceId\} {2}Dynamic Blob Resource \(template\)/,
    );
    const json = JSON.parse((await runMain(['resources', '--json', ...EVERYTHING])).stdout);
    assert.ok(json.resources.length > 0 && json.resourceTemplates.length > 0);
    assert.deepEqual(json.excluded, []);
  });

  test('read prints text, and writes a blob to a private file', async () => {
    const text = await runMain(['read', 'demo://resource/static/document/features.md', ...EVERYTHING]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^\[resource demo:\/\/resource\/static\/document\/features\.md\]\n# Everything Server/,
    );
    const blob = await runMain(['read', 'demo://resource/dynamic/blob/1', ...EVERYTHING]);
    assert.equal(blob.code, 0, blob.stderr);
    const match = /^(\S+) (\d+) bytes → (\S+) \(resource demo:\/\/resource\/dynamic\/blob\/1\)\n$/.exec(
      blob.stdout,
    );
    assert.ok(match, blob.stdout);
    const file = match[3] as string;
    try {
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(readFileSync(file).length, Number(match[2]));
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
    const json = JSON.parse(
      (await runMain(['read', '--json', 'demo://resource/dynamic/blob/1', ...EVERYTHING])).stdout,
    );
    assert.equal(typeof json.contents[0].blob, 'string');
  });

  test('prompts lists arguments; prompt passes key=value arguments', async () => {
    const list = await runMain(['prompts', ...EVERYTHING]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^args-prompt\(city, state\?\)$/m);
    const got = await runMain(['prompt', 'args-prompt', 'city=Lyon', 'state=Rhône', ...EVERYTHING]);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, /^\[user\]\n.*Lyon, Rhône/m);
    const json = JSON.parse(
      (await runMain(['prompt', '--json', 'args-prompt', 'city=Lyon', ...EVERYTHING])).stdout,
    );
    assert.equal(json.messages[0].role, 'user');
  });

  test('a server without resources/templates/list still lists its resources', async () => {
    const only = ['--', process.execPath, path.join(ROOT, 'test/fixtures/resources-only.mjs')];
    const run = await runMain(['resources', ...only]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'only://one  one\n');
  });

  test('usage errors: no uri, no prompt name, a word that is not key=value', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['read', ...EVERYTHING], /^read needs the uri of a resource/],
      [['prompt', ...EVERYTHING], /^prompt needs a prompt name/],
      [['prompt', 'args-prompt', 'city', ...EVERYTHING], /^expected key=value, got "city"/],
      [['resources', 'extra', ...EVERYTHING], /^unexpected argument "extra"/],
    ];
    for (const [argv, message] of cases) {
      const run = await runMain(argv);
      assert.equal(run.code, 2, argv.join(' '));
      assert.match(run.stderr, message);
    }
  });

  test('a hostile server: escapes never reach the terminal, malformed entries are left out with a reason', async () => {
    const prompts = await runMain(['prompts', ...HOSTILE]);
    assert.equal(prompts.code, 0, prompts.stderr);
    assert.ok(!prompts.stdout.includes(ESC), 'no escape in the output');
    assert.match(prompts.stdout, /^\(left out\) bad-args: arguments is not an array$/m);
    const read = await runMain(['read', 'x://r/1', ...HOSTILE]);
    assert.equal(read.code, 0, read.stderr);
    assert.ok(!read.stdout.includes(ESC) && !read.stdout.includes('\u0007'), 'no escape in the output');
    assert.match(read.stdout, /^\(left out\) x:\/\/r\/1: resource has neither text nor blob$/m);
    const file = /→ (\S+)/.exec(read.stdout)?.[1];
    if (file) rmSync(path.dirname(file), { recursive: true, force: true });
    const endless = await runMain(['resources', ...HOSTILE]);
    assert.notEqual(endless.code, 0);
    assert.match(endless.stderr, /more than 100 pages/);
  });
});
