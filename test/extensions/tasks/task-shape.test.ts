/**
 * A task is read as untrusted data (SEP-2663 task shapes): unknown statuses, missing or oversized ids, a
 * terminal status without its payload are refused with a sentence; the status message is terminal-safe and
 * bounded; the poll interval is clamped between a floor and a ceiling.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  POLL_CEILING_MS,
  POLL_DEFAULT_MS,
  POLL_FLOOR_MS,
  pollDelay,
} from '../../../src/extensions/tasks/poll-delay.js';
import {
  MAX_STATUS_MESSAGE_CHARS,
  MAX_TASK_ID_CHARS,
  readTask,
} from '../../../src/extensions/tasks/task-shape.js';

const base = { taskId: 't1', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: null };

test('the poll interval is the server’s, never under the floor nor over the ceiling', () => {
  assert.equal(pollDelay(0), POLL_FLOOR_MS);
  assert.equal(pollDelay(-5), POLL_FLOOR_MS);
  assert.equal(pollDelay(2500), 2500);
  assert.equal(pollDelay(1e12), POLL_CEILING_MS);
  assert.equal(pollDelay(Number.POSITIVE_INFINITY), POLL_DEFAULT_MS);
  assert.equal(pollDelay('5000'), POLL_DEFAULT_MS);
  assert.equal(pollDelay(undefined), POLL_DEFAULT_MS);
});

test('each status with its payload is read; a bad task is a sentence, never an exception', () => {
  assert.deepEqual(readTask({ ...base, status: 'working', pollIntervalMs: 500 }), {
    taskId: 't1',
    status: 'working',
    pollIntervalMs: 500,
  });
  const result = { content: [] };
  assert.deepEqual(readTask({ ...base, status: 'completed', result }), {
    taskId: 't1',
    status: 'completed',
    result,
  });
  assert.equal(readTask({ ...base, status: 'completed' }), 'a completed task has no result object');
  assert.equal(readTask({ ...base, status: 'failed', error: 'x' }), 'a failed task has no error object');
  assert.equal(
    readTask({ ...base, status: 'input_required', inputRequests: [] }),
    'inputRequests is not an object',
  );
  assert.equal(readTask({ ...base, status: 'paused' }), 'the task has an unknown status "paused"');
  assert.equal(readTask({ ...base, taskId: 5, status: 'working' }), 'the task has no taskId string');
  assert.equal(
    readTask({ ...base, taskId: 'x'.repeat(MAX_TASK_ID_CHARS + 1), status: 'working' }),
    `the taskId is longer than ${MAX_TASK_ID_CHARS} characters`,
  );
  assert.equal(readTask({ ...base, status: 'working' }, 't2'), 'the answer is about another taskId');
  assert.equal(readTask([]), 'the task is not an object');
  assert.equal(readTask(null), 'the task is not an object');
});

test('the status message is made terminal-safe, one line and bounded', () => {
  const task = readTask({
    ...base,
    status: 'working',
    statusMessage: `\x1b]0;title\x07red\x1b[31m\nnext ${'y'.repeat(5000)}`,
  });
  assert.ok(typeof task === 'object');
  const message = task.statusMessage ?? '';
  assert.ok(message.length <= MAX_STATUS_MESSAGE_CHARS, `${message.length}`);
  assert.doesNotMatch(message, /[\x00-\x1f\x7f]/);
  // An unknown status is quoted bounded and safe too.
  const quoted = readTask({ ...base, status: `\x1b[2J${'z'.repeat(500)}` });
  assert.ok(typeof quoted === 'string' && quoted.length < 140 && !quoted.includes('\x1b'), String(quoted));
});
