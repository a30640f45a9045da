/**
 * The sandbox boundary, tested the way an attacker's code would try it: Node/Deno globals, module loading
 * (dynamic and static), the network (a real loopback canary that counts hits), constructor chains from the
 * bridge objects, global enumeration, host error objects, and state left from one run for another.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { runCode } from '../../src/code/index.js';
import { recordingCatalog } from './clients-catalog.js';

let hits = 0;
const canary = createServer((_request, response) => {
  hits++;
  response.end('reached');
});
let canaryUrl = '';

before(async () => {
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/`;
});
after(() => canary.close());

/** Runs `source` and returns its value, failing with the whole result when the run did not return one. */
async function runValue(
  source: string,
  options: Partial<Parameters<typeof runCode>[1]> = {},
): Promise<unknown> {
  const result = await runCode(source, { catalog: recordingCatalog(), ...options });
  assert.equal(result.error, undefined, `want a value, got ${JSON.stringify(result)}`);
  return result.value;
}

test('no Node, Deno or Bun globals: require, process, Deno, Bun, fetch, timers, module are undefined', async () => {
  const names = [
    'require',
    'process',
    'Deno',
    'Bun',
    'fetch',
    'XMLHttpRequest',
    'WebSocket',
    'Worker',
    'setTimeout',
    'setInterval',
    'setImmediate',
    'queueMicrotask',
    'module',
    'exports',
    '__dirname',
    'Buffer',
    'global',
    'navigator',
    'std',
    'os',
    'print',
    'SharedWorker',
    'importScripts',
  ];
  const got = await runValue(`return ${JSON.stringify(names)}.map((n) => n + ':' + typeof globalThis[n])`);
  assert.deepEqual(
    got,
    names.map((n) => `${n}:undefined`),
  );
});

test('require(), process.env and Deno.readFile throw ReferenceError inside; nothing reaches the catalog', async () => {
  for (const source of [
    "return require('node:fs')",
    'return process.env',
    "return await Deno.readFile('/etc/passwd')",
  ]) {
    const catalog = recordingCatalog();
    const result = await runCode(source, { catalog });
    assert.equal(result.error?.kind, 'thrown', source);
    assert.match(
      result.error?.message ?? '',
      /^ReferenceError: '(require|process|Deno)' is not defined/,
      source,
    );
    assert.deepEqual(catalog.reached, []);
  }
});

test("import('node:fs') and import() of a URL reject: there is no module loader", async () => {
  for (const specifier of ['node:fs', 'fs', canaryUrl, 'data:text/javascript,export default 1']) {
    const result = await runCode(`return await import(${JSON.stringify(specifier)})`, {
      catalog: recordingCatalog(),
    });
    assert.equal(result.error?.kind, 'thrown', specifier);
    assert.match(result.error?.message ?? '', /could not load module/, specifier);
  }
  assert.equal(hits, 0);
});

test('a static import is a syntax error (JavaScript, and TypeScript that uses it)', async () => {
  const js = await runCode("import fs from 'node:fs';\nreturn fs.readFileSync('/etc/passwd', 'utf8')", {
    catalog: recordingCatalog(),
    language: 'js',
  });
  assert.equal(js.error?.kind, 'syntax');
  const ts = await runCode(
    "import fs from 'node:fs';\nconst p: string = '/etc/passwd';\nreturn fs.readFileSync(p)",
    {
      catalog: recordingCatalog(),
    },
  );
  assert.equal(ts.error?.kind, 'syntax');
});

test('the network is unreachable: fetch and friends to a loopback canary record no hit', async () => {
  const source = `
    const tries = [
      () => fetch(${JSON.stringify(canaryUrl)}),
      () => new XMLHttpRequest(),
      () => new WebSocket(${JSON.stringify(canaryUrl.replace('http', 'ws'))}),
      () => import(${JSON.stringify(canaryUrl)}),
      () => mcp.call.constructor.constructor('return fetch')()(${JSON.stringify(canaryUrl)}),
    ];
    const out = [];
    for (const t of tries) { try { await t(); out.push('ran'); } catch (e) { out.push(e.name); } }
    return out;`;
  const got = await runValue(source);
  assert.deepEqual(got, [
    'ReferenceError',
    'ReferenceError',
    'ReferenceError',
    'ReferenceError',
    'ReferenceError',
  ]);
  assert.equal(hits, 0, 'the canary was reached from the sandbox');
  // The canary does count: the host reaches it (so a 0 above means something).
  await (await fetch(canaryUrl)).text();
  assert.equal(hits, 1);
  hits = 0;
});

test('globalThis shows only the standard built-ins plus mcp, servers and console', async () => {
  const names = (await runValue('return Reflect.ownKeys(globalThis).map(String).sort()')) as string[];
  const standard = [
    'AggregateError',
    'Array',
    'ArrayBuffer',
    'BigInt',
    'BigInt64Array',
    'BigUint64Array',
    'Boolean',
    'DataView',
    'Date',
    'Error',
    'EvalError',
    'FinalizationRegistry',
    'Float16Array',
    'Float32Array',
    'Float64Array',
    'Function',
    'Infinity',
    'Int16Array',
    'Int32Array',
    'Int8Array',
    'InternalError',
    'Iterator',
    'JSON',
    'Map',
    'Math',
    'NaN',
    'Number',
    'Object',
    'Promise',
    'Proxy',
    'RangeError',
    'ReferenceError',
    'Reflect',
    'RegExp',
    'Set',
    'SharedArrayBuffer',
    'String',
    'Symbol',
    'Symbol(Symbol.toStringTag)',
    'SyntaxError',
    'TypeError',
    'URIError',
    'Uint16Array',
    'Uint32Array',
    'Uint8Array',
    'Uint8ClampedArray',
    'WeakMap',
    'WeakRef',
    'WeakSet',
    'console',
    'decodeURI',
    'decodeURIComponent',
    'encodeURI',
    'encodeURIComponent',
    'escape',
    'eval',
    'globalThis',
    'isFinite',
    'isNaN',
    'mcp',
    'parseFloat',
    'parseInt',
    'servers',
    'undefined',
    'unescape',
  ];
  assert.deepEqual(
    names.filter((n) => !standard.includes(n)),
    [],
    'names beyond the standard ones',
  );
  for (const bridge of ['mcp', 'servers', 'console']) assert.ok(names.includes(bridge), bridge);
});

test('constructor chains from the bridge objects reach the sandbox realm, never the host', async () => {
  const probes = [
    "mcp.call.constructor('return typeof process + typeof require')()",
    "mcp.search.constructor.constructor('return typeof process')()",
    "Object.getPrototypeOf(mcp.describe).constructor('return typeof Deno')()",
    "servers.constructor.constructor.constructor === undefined ? 'none' : typeof servers.constructor.constructor",
    'String(Object.getPrototypeOf(servers))',
    "Object.getPrototypeOf(mcp) === Object.prototype ? 'sandbox Object.prototype' : 'other'",
    "console.log.constructor('return typeof globalThis.process')()",
    "(async () => {}).constructor('return typeof process')().constructor.name",
    "Reflect.ownKeys(mcp).join(',')",
    'Object.isFrozen(mcp) && Object.isFrozen(console)',
  ];
  const got = await runValue(
    `return [${probes.map((p) => `await (async () => { try { return await (${p}) } catch (e) { return e.name } })()`).join(',')}]`,
  );
  assert.deepEqual(got, [
    'undefinedundefined',
    'undefined',
    'undefined',
    'function',
    'null',
    'sandbox Object.prototype',
    'undefined',
    'Promise',
    'call,search,describe',
    true,
  ]);
});

test('a servers.<name> that is a constructor-chain word is just a tool ref, sent nowhere it should not be', async () => {
  const catalog = recordingCatalog();
  const result = await runCode("return await servers.constructor.constructor('return process')", { catalog });
  assert.equal(result.error?.call?.kind, 'invalid_arguments');
  assert.deepEqual(catalog.reached, [], 'a string argument is refused before the catalog');
});

test('a host error crosses as plain data: no stack, no cause, no extra fields, no host object', async () => {
  const catalog = recordingCatalog(async () => {
    const error = Object.assign(new Error('upstream said no'), {
      kind: 'rpc',
      delivery: 'delivered',
      code: -32000,
      headers: { authorization: 'Bearer SECRET-TOKEN' },
      cause: new Error('inner with SECRET-TOKEN'),
    });
    throw error;
  });
  const got = (await runValue(
    "try { await mcp.call('x.y', {}) } catch (e) { return { keys: Object.keys(e).sort(), name: e.name, message: e.message, stack: String(e.stack), cause: typeof e.cause, own: JSON.stringify(e), isError: e instanceof Error } }",
    { catalog },
  )) as { keys: string[]; name: string; message: string; cause: string; isError: boolean; stack: string };
  assert.deepEqual(got.keys, ['annotations', 'code', 'delivery', 'kind', 'name', 'ref']);
  assert.equal(got.name, 'McpError');
  assert.equal(got.message, 'upstream said no');
  assert.equal(got.cause, 'undefined');
  assert.equal(got.isError, true, 'a sandbox Error, not a host one');
  // Frames of the sandbox's own prelude only: no host file, no host frame.
  for (const frame of String(got.stack).trim().split('\n'))
    assert.match(frame, /^\s*at \w+ \(autos-mcp-prelude\.js:\d+:\d+\)$/);
  assert.doesNotMatch(JSON.stringify(got), /SECRET-TOKEN/);
});

test('runs are isolated: a global set in one run is absent in a concurrent run and in the next', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const catalog = recordingCatalog(async () => {
    await gate;
    return { content: [] };
  });
  const first = runCode(
    "globalThis.secret = 'one'; Object.prototype.polluted = 1; await mcp.call('a.b', {}); return typeof secret",
    { catalog },
  );
  const second = await runCode('return [typeof secret, typeof ({}).polluted]', { catalog });
  release();
  assert.deepEqual(second.value, ['undefined', 'undefined']);
  assert.equal((await first).value, 'string');
  const third = await runCode('return [typeof secret, typeof ({}).polluted]', { catalog });
  assert.deepEqual(third.value, ['undefined', 'undefined']);
});

test('replacing JSON, Promise.prototype.then and Function.prototype.call inside changes nothing that crosses', async () => {
  const catalog = recordingCatalog();
  const result = await runCode(
    `JSON.stringify = () => '{"evil":true}';
     JSON.parse = () => ({ evil: true });
     Promise.prototype.then = function () { throw new Error('hijacked') };
     Function.prototype.call = () => 'hijacked';
     Object.prototype.toJSON = undefined;
     const r = await servers.echo.say({ n: 1 });
     return r.content[0].text;`,
    { catalog },
  );
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  assert.equal(result.value, '{"n":1}');
  assert.deepEqual(catalog.reached, [{ op: 'call', ref: 'echo.say', args: { n: 1 } }]);
});

test('a getter or toJSON that calls a tool while the result is read out sends nothing', async () => {
  const catalog = recordingCatalog();
  const result = await runCode(
    "return { toJSON() { mcp.call('echo.late', {}).catch(() => {}); return 'read' } }",
    { catalog },
  );
  assert.equal(result.value, 'read');
  const thrown = await runCode(
    "throw { get message() { mcp.call('echo.late', {}).catch(() => {}); return 'boom' } }",
    { catalog },
  );
  assert.equal(thrown.error?.message, 'Error: boom');
  assert.deepEqual(catalog.reached, []);
  assert.deepEqual([...result.calls, ...thrown.calls], []);
});
