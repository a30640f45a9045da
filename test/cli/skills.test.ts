/**
 * `skills` and `skill`, run in this process against the official SDK v2 skills server and the hostile
 * skills fixture: human and --json output, server text made safe for the terminal, a refused skill leaving
 * nothing behind, usage errors before anything starts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../catalog/helpers.js';
import { runMain } from './in-process.js';

const SDK = [
  '--',
  process.execPath,
  path.join(ROOT, 'test/fixtures/sdk-skills-server.mjs'),
  '--era',
  'legacy',
];
const HOSTILE = ['--', process.execPath, path.join(ROOT, 'test/fixtures/hostile-skills.mjs')];
const ESC = '\u001b';

describe('skills on the command line', () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'autos-mcp-cli-skills-'));
  });
  after(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  test('skills lists name, uri, files and description; escapes in server text are made safe; --json', async () => {
    const run = await runMain(['skills', ...SDK]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^pdf-tools {2}skill:\/\/pdf-tools\/SKILL\.md {2}\(4 files\)\n {4}Fill and merge PDF forms\.\n/,
    );
    assert.match(run.stdout, /review {2}skill:\/\/review\/SKILL\.md {2}\(1 file\)/);
    assert.ok(!run.stdout.includes(ESC), 'no raw escape reaches the terminal');
    const json = JSON.parse((await runMain(['skills', '--json', ...SDK])).stdout);
    assert.equal(json.skills.length, 3);
    assert.deepEqual(json.excluded, []);
    const hostile = await runMain(['skills', ...HOSTILE]);
    assert.equal(hostile.code, 0, hostile.stderr);
    assert.ok(!hostile.stdout.includes(ESC) && !hostile.stdout.includes('\u0007'));
    assert.match(hostile.stdout, /ansi {2}skill:\/\/ansi\/SKILL\.md {2}\(dynamic\)/);
    assert.match(hostile.stdout, /\(left out\) upper: resources\[0\]\.digest/);
  });

  test('skills turns the skills extension on: a server that requires the declaration answers', async () => {
    const run = await runMain(['skills', '--json', ...HOSTILE, '--strict']);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(JSON.parse(run.stdout).skills.length > 0);
  });

  test('skill writes the verified files to --out; --json lists them', async () => {
    const out = path.join(scratch, 'pdf');
    const run = await runMain(['skill', 'pdf-tools', '--out', out, ...SDK]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^pdf-tools: 4 files, 161 bytes, verified → /);
    assert.equal(readFileSync(path.join(out, 'scripts/fill.sh'), 'utf8'), '#!/bin/sh\necho filling "$1"\n');
    const json = JSON.parse(
      (
        await runMain([
          'skill',
          '--json',
          'skill://review/SKILL.md',
          '--out',
          path.join(scratch, 'review'),
          ...SDK,
        ])
      ).stdout,
    );
    assert.deepEqual(
      json.files.map((file: { path: string }) => file.path),
      ['SKILL.md'],
    );
  });

  test('a skill that fails verification exits 3 naming the kind, and leaves nothing', async () => {
    const out = path.join(scratch, 'bad');
    const run = await runMain(['skill', 'bad-digest', '--out', out, ...HOSTILE]);
    assert.equal(run.code, 3, run.stdout);
    assert.match(run.stderr, /SHA-256/);
    assert.equal(existsSync(out), false);
    assert.deepEqual(
      readdirSync(scratch).filter((name) => name.includes('bad')),
      [],
    );
  });

  test('a server without the extension: the rpc error says so', async () => {
    const run = await runMain([
      'skills',
      '--',
      process.execPath,
      path.join(ROOT, 'test/fixtures/echo-server.mjs'),
    ]);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /-32601.*does not offer the skills extension/);
  });

  test('usage errors: no name, no --out', async () => {
    const noName = await runMain(['skill', '--out', path.join(scratch, 'x'), ...SDK]);
    assert.equal(noName.code, 2);
    assert.match(noName.stderr, /skill needs a skill name/);
    const noOut = await runMain(['skill', 'pdf-tools', ...SDK]);
    assert.equal(noOut.code, 2);
    assert.match(noOut.stderr, /skill needs --out/);
  });
});
