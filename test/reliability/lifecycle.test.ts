/**
 * Lifecycle under stress: a server killed with SIGKILL mid-call (the call rejects at once, `closed`,
 * delivery `unknown`), and many connect/close cycles against the echo fixture that must leave no child
 * processes, no extra file descriptors and no growing process listener counts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, isMcpError } from '../../src/index.js';
import { fixture, textOf } from '../client/helpers.js';
import { childPids, fdCount } from '../helpers/proc.js';
import { eventually } from '../helpers/wait.js';
import { size, trapEscapes } from './helpers.js';

trapEscapes();

const EVENTS = [
  'exit',
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'beforeExit',
  'uncaughtException',
  'unhandledRejection',
];
const listenerCounts = () => Object.fromEntries(EVENTS.map((e) => [e, process.listenerCount(e)]));

describe('a server killed with SIGKILL mid-call', () => {
  it('the call rejects at once with kind closed, delivery unknown, and close() reports 0 processes', async () => {
    let arrived: () => void = () => {};
    const onWire = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const client = await connect(fixture('hang.mjs', ['60000', '--announce'], { graceMs: 200 }), {
      timeoutMs: 30_000,
      onLog: (entry) => {
        if (entry.data.includes('received tools/call')) arrived();
      },
    });
    try {
      const pid = client.pid;
      assert.ok(pid, 'want a pid');
      const call = client.callTool('echo', { text: 'never answered' });
      await onWire; // the server has the request
      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      const error = await call.then(
        () => assert.fail('want a rejection'),
        (e: unknown) => e,
      );
      const waited = Date.now() - killedAt;
      assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
      assert.equal(error.kind, 'closed');
      assert.equal(error.delivery, 'unknown');
      assert.match(error.message, /SIGKILL/);
      assert.ok(waited < 1500, `want a rejection at once, waited ${waited} ms`);
    } finally {
      const report = await client.close();
      assert.equal(report.process?.activeProcesses, 0);
      assert.equal(report.process?.signal, 'SIGKILL');
    }
  });
});

describe('connect/close cycles', () => {
  const cycles = size(100, 500);
  it(`${cycles} connect/call/close cycles leave no processes, no extra fds and no new process listeners`, async () => {
    // One warm-up cycle: the first connection installs the process-wide exit hook and loads modules.
    const warm = await connect(fixture('echo-server.mjs'));
    await warm.close();
    assert.ok(await eventually(() => childPids().length === 0, { timeoutMs: 2000 }), 'warm-up left a child');
    const fdsBefore = fdCount();
    const listenersBefore = listenerCounts();
    const parallel = 4;
    for (let i = 0; i < cycles; i += parallel) {
      await Promise.all(
        Array.from({ length: Math.min(parallel, cycles - i) }, async (_, j) => {
          const client = await connect(fixture('echo-server.mjs'));
          try {
            const text = `cycle ${i + j}`;
            assert.equal(textOf(await client.callTool('echo', { text })), text);
          } finally {
            const report = await client.close();
            assert.equal(report.process?.activeProcesses, 0, `cycle ${i + j}: want 0 active processes`);
          }
        }),
      );
    }
    assert.ok(
      await eventually(() => childPids().length === 0, { timeoutMs: 2000 }),
      `want no children, got ${childPids().join(', ')}`,
    );
    const fdsAfter = fdCount();
    assert.ok(fdsAfter <= fdsBefore + 3, `want about ${fdsBefore} fds, got ${fdsAfter}`);
    assert.deepEqual(listenerCounts(), listenersBefore);
  });
});
