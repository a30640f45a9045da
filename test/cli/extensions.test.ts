/**
 * `--extension <id>` (repeatable) on the commands that connect: the id is turned on for the connection,
 * a malformed one is a usage error (exit 2) before anything starts; with the tasks extension, `call`
 * follows a task to its result, says each status on stderr and reports the task in `--json`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ownersOf } from '../../src/cli/parse.js';
import { COMMANDS } from '../../src/cli/table.js';
import { FIXTURES } from '../client/helpers.js';
import { runMain } from './in-process.js';

const SERVER = ['--', process.execPath, path.join(FIXTURES, 'tasks-server.mjs')];
const TASKS = 'io.modelcontextprotocol/tasks';

test('--extension is taken by the commands that connect to a target', () => {
  assert.equal(
    ownersOf('--extension', COMMANDS),
    'tools, call, discover, resources, read, prompts, prompt, skills, skill and types',
  );
});

test('call --json with the tasks extension: the result, and the task it came through', async () => {
  const run = await runMain([
    'call',
    '--json',
    '--protocol',
    '2026-07-28',
    '--extension',
    TASKS,
    'work',
    'text=hi',
    'polls=2',
    ...SERVER,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const document = JSON.parse(run.stdout) as { content: Array<{ text: string }>; task: unknown };
  assert.equal(document.content[0]?.text, 'done: hi');
  assert.deepEqual(document.task, { taskId: 'task-1-work', status: 'completed' });
  assert.match(run.stderr, /task task-1-work: working\ntask task-1-work: completed\n/);
});

test('without the extension the server’s -32021 is exit 3 naming the extension; a bad id is exit 2', async () => {
  const missing = await runMain(['call', '--protocol', '2026-07-28', 'work', ...SERVER]);
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /requires extension io\.modelcontextprotocol\/tasks/);
  const bad = await runMain(['tools', '--extension', 'tasks', ...SERVER]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /extensions: "tasks" is not prefix\/name/);
});
