/**
 * The id works from any context of the process: the main thread, two other worker threads (each with its
 * own copy of the module) and `node:vm` contexts (which call the functions the host gives them, with
 * objects of their own realm). A server that keeps state shows that state on the third call from a third
 * context. The opener's own calls take its private MessagePort pair, every other caller the broadcast.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import vm from 'node:vm';
import { BroadcastChannel } from 'node:worker_threads';
import { isMcpError } from '../../src/errors/index.js';
import { callTool, close, open, status } from '../../src/worker/index.js';
import { ANNOUNCE, requestsChannel } from '../../src/worker/protocol.js';
import { CallerThread, nodeServer, runningRequest, STATE_SERVER } from './helpers.js';

/** Resolves once the end of `id` is announced to this thread (and one turn later, as every listener heard it). */
function goneAnnounced(id: string): Promise<void> {
  const channel = new BroadcastChannel(ANNOUNCE);
  return new Promise<void>((resolve) => {
    channel.onmessage = (event) => {
      if ((event as { data?: { id?: unknown } }).data?.id !== id) return;
      channel.close();
      setImmediate(resolve);
    };
  });
}

/** A vm context with the worker API and nothing else. */
function vmContext(): vm.Context {
  return vm.createContext({ callTool, status });
}

function countOf(result: unknown): unknown {
  return (result as { structuredContent?: { count?: unknown } }).structuredContent?.count;
}

describe('one worker, many contexts', () => {
  let id = '';
  let a: CallerThread;
  let b: CallerThread;
  before(async () => {
    id = await open(nodeServer(STATE_SERVER));
    a = new CallerThread();
    b = new CallerThread();
  });
  after(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await close(id).catch(() => {});
  });

  test('the state is there on the third call from a third context (main → thread → vm)', async () => {
    assert.equal(countOf(await callTool(id, 'increment')), 1);
    assert.equal(countOf(await a.run({ op: 'callTool', id, name: 'increment' })), 2);
    const ctx = vmContext();
    ctx['id'] = id;
    const third = await vm.runInContext(`callTool(id, 'increment', {})`, ctx);
    assert.equal(countOf(third), 3);
  });

  test('two other worker threads call by id; their threads differ from the worker thread', async () => {
    const [fromA, fromB] = await Promise.all([
      a.run({ op: 'callTool', id, name: 'args', args: { from: 'a' } }).catch((e: unknown) => e),
      b.run({ op: 'status', id }),
    ]);
    // A call and a status can run together; a second call could not (busy).
    assert.deepEqual((fromA as { structuredContent?: unknown }).structuredContent, { args: { from: 'a' } });
    const s = fromB as { id: string; threadId: number };
    assert.equal(s.id, id);
    assert.notEqual(s.threadId, a.threadId);
    assert.notEqual(s.threadId, b.threadId);
    assert.equal(countOf(await b.run({ op: 'callTool', id, name: 'increment' })), 4);
  });

  test("the opener's calls take its private pair; another thread's take the broadcast", async () => {
    // A listener on the worker's broadcast channel in this thread hears what any other copy posts there.
    const heard: unknown[] = [];
    const tap = new BroadcastChannel(requestsChannel(id));
    tap.onmessage = (event) => heard.push((event as { data?: { op?: unknown } }).data?.op);
    try {
      await callTool(id, 'args', { from: 'opener' });
      await a.run({ op: 'callTool', id, name: 'args', args: { from: 'a' } });
      // The other thread's request was broadcast after the opener's call ended: once it is heard here,
      // anything the opener broadcast would have been heard first.
      while (heard.length === 0) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(heard, ['callTool']);
    } finally {
      tap.close();
    }
  });

  test('busy holds across threads: a call from another thread while one runs is not_sent', async () => {
    const slow = callTool(id, 'slow', { delayMs: 400, text: 'main' });
    await runningRequest(id);
    await assert.rejects(a.run({ op: 'callTool', id, name: 'increment' }), (e) => {
      assert.ok(isMcpError(e));
      assert.equal(e.kind, 'busy');
      assert.equal(e.delivery, 'not_sent');
      return true;
    });
    assert.equal((await slow).content?.[0]?.['text'], 'main');
  });

  test('vm contexts: objects of another realm are plain data; functions there are refused', async () => {
    const ctx = vmContext();
    ctx['id'] = id;
    const echoed = await vm.runInContext(
      `callTool(id, 'args', { list: [1, null, ''], nested: { zero: 0, no: false } })`,
      ctx,
    );
    assert.deepEqual(echoed.structuredContent, {
      args: { list: [1, null, ''], nested: { zero: 0, no: false } },
    });
    await assert.rejects(vm.runInContext(`callTool(id, 'args', { f: () => 1 })`, ctx), (e) => {
      assert.ok(isMcpError(e), 'the error is recognised across realms');
      assert.equal(e.kind, 'config');
      assert.equal(e.delivery, 'not_sent');
      return true;
    });
    const s = await vm.runInContext('status(id)', ctx);
    assert.equal(s.state, 'ready');
  });

  test('close from another thread ends it for everyone', async () => {
    const other = await open(nodeServer(STATE_SERVER));
    const announced = goneAnnounced(other);
    const final = (await a.run({ op: 'close', id: other })) as {
      state: string;
      cleanup: { activeProcesses: number };
    };
    assert.equal(final.state, 'closed');
    assert.equal(final.cleanup.activeProcesses, 0);
    // This thread heard the announcement: the id is refused at once.
    await announced;
    const t0 = Date.now();
    await assert.rejects(callTool(other, 'increment'), (e) => isMcpError(e) && e.kind === 'closed');
    assert.ok(Date.now() - t0 < 200);
  });
});
