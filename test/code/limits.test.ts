/**
 * Every bound of a run pushed past, by hostile code or a hostile answer: the deadline (a synchronous loop, a
 * microtask loop, a promise never settled, a call that answers after the deadline), the heap cap, the stack,
 * logs, the call budget and the calls in flight, the size of what crosses in either direction, and the
 * signal. After each, the host is intact and the next run works.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LIMITS, runCode } from '../../src/code/index.js';
import { recordingCatalog } from './clients-catalog.js';

/** The next run works: the host and the engine survived what came before. */
async function stillWorks(): Promise<void> {
  const result = await runCode("return (await mcp.call('echo.say', { n: 2 })).content[0].text", {
    catalog: recordingCatalog(),
  });
  assert.deepEqual(result, {
    value: '{"n":2}',
    logs: [],
    calls: [{ ref: 'echo.say', ok: true, ms: result.calls[0]?.ms ?? -1, delivery: 'delivered' }],
  });
}

test('a synchronous infinite loop ends with timeout (interrupt handler); the host goes on', async () => {
  const result = await runCode('while (true) {}', { catalog: recordingCatalog(), timeoutMs: 200 });
  assert.equal(result.error?.kind, 'timeout');
  await stillWorks();
});

test('a microtask loop (for(;;) await 0) ends with timeout', async () => {
  const result = await runCode('for (;;) { await 0 }', { catalog: recordingCatalog(), timeoutMs: 200 });
  assert.equal(result.error?.kind, 'timeout');
  await stillWorks();
});

test('a promise that nothing can settle ends at once with unsettled, not at the deadline', async () => {
  const result = await runCode('await new Promise(() => {}); return 1', { catalog: recordingCatalog() });
  assert.equal(result.error?.kind, 'unsettled');
});

test('memory bombs end with too_large: a 1e9-character string, an ever-growing array, arrays QuickJS does not count', async () => {
  for (const source of [
    "return 'x'.repeat(1e9)",
    'const a = []; for (;;) a.push({ a: [1, 2, 3] })',
    // A fast array's elements escape QuickJS's own count: only the WebAssembly memory's maximum stops these
    // (without it, this run grew the engine to 2 GiB and ended on the deadline).
    'const a = []; for (;;) a.push(new Array(1e5).fill(1))',
    "const a = []; for (;;) a.push('x'.repeat(1e6))",
  ]) {
    const result = await runCode(source, { catalog: recordingCatalog(), memoryMb: 16, timeoutMs: 20_000 });
    assert.equal(result.error?.kind, 'too_large', `${source}: ${JSON.stringify(result.error)}`);
  }
  await stillWorks();
});

test('deep recursion throws a catchable error; nesting past V8 own stack is too_large; the host survives', async () => {
  const caught = await runCode('function f() { return f() } try { f() } catch (e) { return e.message }', {
    catalog: recordingCatalog(),
  });
  assert.equal(caught.value, 'stack overflow');
  for (const source of [
    'return JSON.parse("[".repeat(200000) + "]".repeat(200000))',
    'let a = []; for (let i = 0; i < 200000; i++) a = [a]; return JSON.stringify(a).length',
  ]) {
    const result = await runCode(source, { catalog: recordingCatalog() });
    assert.ok(result.error !== undefined, source);
    assert.ok(['too_large', 'thrown'].includes(result.error.kind), JSON.stringify(result.error));
    await stillWorks();
  }
});

test('10 MB of logs keep maxLogChars characters and one marker line', async () => {
  const result = await runCode(
    "for (let i = 0; i < 10000; i++) console.log('x'.repeat(1000)); return 'done'",
    {
      catalog: recordingCatalog(),
      maxLogChars: 5_000,
    },
  );
  assert.equal(result.value, 'done');
  const marker = result.logs.at(-1) ?? '';
  assert.match(marker, /console output cut at 5000 characters/);
  assert.equal(result.logs.slice(0, -1).join('').length, 5_000);
  const one = await runCode("console.log('y'.repeat(1e7))", {
    catalog: recordingCatalog(),
    maxLogChars: 100,
  });
  assert.equal(one.logs[0], 'y'.repeat(100));
});

test('a flood of 100,000 calls: at most maxCalls reach the catalog, the rest fail call_limit not_sent', async () => {
  const catalog = recordingCatalog();
  const result = await runCode(
    `const settled = await Promise.allSettled(Array.from({ length: 100000 }, (_, i) => mcp.call('echo.say', { i })));
     const refused = settled.filter((s) => s.status === 'rejected');
     return { ok: settled.length - refused.length, refused: refused.length, kind: refused[0].reason.kind, delivery: refused[0].reason.delivery };`,
    // 100,000 pending promises take ~200 MiB of the engine's real memory (QuickJS counts a third of it).
    { catalog, memoryMb: 256 },
  );
  assert.deepEqual(result.value, { ok: 1000, refused: 99000, kind: 'call_limit', delivery: 'not_sent' });
  assert.equal(catalog.reached.length, DEFAULT_LIMITS.maxCalls);
  assert.equal(result.calls.length, DEFAULT_LIMITS.maxCalls, 'refused calls leave no record');
});

test('at most maxConcurrentCalls are in flight; the others wait their turn and all finish', async () => {
  let now = 0;
  let peak = 0;
  const catalog = recordingCatalog(async () => {
    now++;
    peak = Math.max(peak, now);
    await new Promise((resolve) => setImmediate(resolve));
    now--;
    return { content: [] };
  });
  const result = await runCode(
    "return (await Promise.all(Array.from({ length: 50 }, () => mcp.call('a.b', {})))).length",
    { catalog, maxConcurrentCalls: 4 },
  );
  assert.equal(result.value, 50);
  assert.equal(peak, 4);
});

test('an argument over the size limit is refused not_sent; an answer over it is too_large delivered', async () => {
  const catalog = recordingCatalog(async (_ref, args) =>
    args?.['big'] ? { content: [{ type: 'text', text: 'y'.repeat(DEFAULT_LIMITS.maxInChars) }] } : {},
  );
  const result = await runCode(
    `const out = [];
     try { await mcp.call('a.b', { text: 'x'.repeat(${DEFAULT_LIMITS.maxArgChars}) }) } catch (e) { out.push([e.kind, e.delivery]) }
     try { await mcp.call('a.b', { big: true }) } catch (e) { out.push([e.kind, e.delivery]) }
     return out;`,
    { catalog },
  );
  assert.deepEqual(result.value, [
    ['too_large', 'not_sent'],
    ['too_large', 'delivered'],
  ]);
  assert.equal(catalog.reached.length, 1, 'the oversized argument never reached the catalog');
  assert.deepEqual(
    result.calls.map((c) => [c.ok, c.kind, c.delivery]),
    [[false, 'too_large', 'delivered']],
  );
});

test('a returned value over maxValueChars is too_large; a function, a cycle, a BigInt are not_plain', async () => {
  const big = await runCode("return 'x'.repeat(2000)", { catalog: recordingCatalog(), maxValueChars: 1000 });
  assert.equal(big.error?.kind, 'too_large');
  assert.equal(big.value, undefined);
  for (const source of [
    'return () => 1',
    'const a = {}; a.self = a; return a',
    'return { n: 1n }',
    'return [Symbol()]',
  ]) {
    const result = await runCode(source, { catalog: recordingCatalog() });
    assert.equal(result.error?.kind, 'not_plain', `${source}: ${JSON.stringify(result)}`);
  }
});

test('a call answered after the deadline is dropped: timeout, delivery unknown, no crash, next run fine', async () => {
  let late!: () => void;
  const answered = new Promise<void>((resolve) => {
    late = resolve;
  });
  let signalled = false;
  const catalog = recordingCatalog(async (_ref, _args, options) => {
    options?.signal?.addEventListener('abort', () => {
      signalled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // ignores the abort, answers late
    late();
    return { content: [{ type: 'text', text: 'late' }] };
  });
  const result = await runCode("return await mcp.call('slow.op', {})", { catalog, timeoutMs: 150 });
  assert.equal(result.error?.kind, 'timeout');
  assert.equal(signalled, true, 'the call in flight was aborted');
  assert.deepEqual(
    result.calls.map((c) => [c.ref, c.ok, c.delivery, c.kind]),
    [['slow.op', false, 'unknown', 'timeout']],
  );
  const before = JSON.stringify(result);
  await answered;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(JSON.stringify(result), before, 'the late answer changed nothing');
  await stillWorks();
});

test('aborting the signal while a call is in flight ends the run cancelled and aborts the call', async () => {
  const controller = new AbortController();
  const catalog = recordingCatalog(
    (_ref, _args, options) =>
      new Promise((_resolve, reject) => {
        controller.abort();
        options?.signal?.addEventListener('abort', () =>
          reject(Object.assign(new Error('cancelled'), { kind: 'cancelled', delivery: 'unknown' })),
        );
      }),
  );
  const result = await runCode("return await mcp.call('a.b', {})", { catalog, signal: controller.signal });
  assert.equal(result.error?.kind, 'cancelled');
  assert.deepEqual(
    result.calls.map((c) => [c.ok, c.delivery]),
    [[false, 'unknown']],
  );
});

test('a ref outside allow fails denied, not_sent, and never reaches the catalog', async () => {
  const catalog = recordingCatalog();
  const result = await runCode(
    "const out = []; for (const ref of ['memory.read_graph', 'github.delete_repo', 'memory.x.y']) { try { await mcp.call(ref, {}); out.push('ok') } catch (e) { out.push(e.kind + ' ' + e.delivery) } } return out",
    { catalog, allow: ['memory.*'] },
  );
  assert.deepEqual(result.value, ['ok', 'denied not_sent', 'ok']);
  assert.deepEqual(
    catalog.reached.map((r) => r.ref),
    ['memory.read_graph', 'memory.x.y'],
  );
  assert.deepEqual(
    result.calls.map((c) => [c.ref, c.ok, c.kind ?? null, c.delivery]),
    [
      ['memory.read_graph', true, null, 'delivered'],
      ['github.delete_repo', false, 'denied', 'not_sent'],
      ['memory.x.y', true, null, 'delivered'],
    ],
  );
});

test('invalid options reject with kind config; nothing runs', async () => {
  const catalog = recordingCatalog();
  const bad: Array<Record<string, unknown>> = [
    {},
    { catalog, allow: 'demo.*' },
    { catalog, allow: [1] },
    { catalog, timeoutMs: -1 },
    { catalog, memoryMb: Number.NaN },
    { catalog, maxCalls: 0 },
  ];
  for (const options of bad)
    await assert.rejects(
      runCode('return 1', options as never), // each is deliberately not a RunCodeOptions
      (error: unknown) => (error as { kind?: string }).kind === 'config',
      JSON.stringify(options),
    );
  assert.deepEqual(catalog.reached, []);
});

test('a catalog that throws synchronously fails the call, not the run', async () => {
  const catalog = {
    search: () => {
      throw new Error('search broke');
    },
    describe: () => {
      throw new Error('describe broke');
    },
    call: () => {
      throw Object.assign(new Error('call broke'), { kind: 'closed', delivery: 'not_sent' });
    },
  };
  const result = await runCode(
    "const out = []; for (const f of [() => mcp.call('a.b', {}), () => mcp.search('x'), () => mcp.describe('a.b')]) { try { await f() } catch (e) { out.push(e.kind + ' ' + e.delivery + ' ' + e.message) } } return out",
    { catalog: catalog as never, timeoutMs: 5_000 },
  );
  assert.deepEqual(result.value, [
    'closed not_sent call broke',
    'failed unknown search broke',
    'failed unknown describe broke',
  ]);
});
