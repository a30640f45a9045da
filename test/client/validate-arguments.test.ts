/**
 * `validateArguments`: arguments checked against the tool's `inputSchema` before anything is sent. A
 * violation is `invalid_arguments`, `not_sent`, naming the first failing path and the expected type, never
 * the value, and the server never sees the call; a schema that cannot be used (a remote or missing `$ref`,
 * a cycle, an unknown dialect, one past the bounds, a bad pattern) is `invalid_tool` and not sent either;
 * the tool list is fetched first when there is none; the option works per call and per client. Over the
 * in-memory pair (to see the wire) and against the demo server over stdio.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { firstProblem } from '../../src/client/arguments.js';
import { connect, isMcpError, textOf, withClient } from '../../src/index.js';
import { scriptedPair } from '../helpers/memory-server.js';
import { demoServer } from './helpers.js';

const SECRET = 'hunter2-do-not-echo';

const ITEM = { type: 'object', required: ['id'], properties: { id: { type: 'number' } } };
const TOOLS = [
  {
    name: 'typed',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        n: { type: 'integer', minimum: 3 },
        list: { type: 'array', items: { $ref: '#/$defs/item' } },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        when: { type: 'string', format: 'date-time' },
        'a/b~c': { type: 'string' },
      },
      required: ['text'],
      additionalProperties: false,
      $defs: { item: ITEM },
    },
  },
  {
    name: 'remote',
    inputSchema: { type: 'object', properties: { a: { $ref: 'https://schemas.example/a.json' } } },
  },
  { name: 'missing', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/nowhere' } } } },
  { name: 'cyclic', inputSchema: { type: 'object', $ref: '#' } },
  { name: 'dialect', inputSchema: { type: 'object', $schema: 'https://example.com/my-dialect' } },
  { name: 'pattern', inputSchema: { type: 'object', properties: { p: { type: 'string', pattern: '(' } } } },
  { name: 'deep', inputSchema: { type: 'object', properties: { a: nest(40) } } },
  {
    name: 'wide',
    inputSchema: { type: 'object', properties: { e: { enum: Array.from({ length: 20_001 }, (_, i) => i) } } },
  },
  {
    name: 'exponential',
    inputSchema: { type: 'object', properties: { p: { type: 'string', pattern: '^(a+)+$' } } },
  },
  { name: 'cubic', inputSchema: { type: 'object', properties: { p: { type: 'string', pattern: 'a*a*b' } } } },
  {
    name: 'anchored',
    inputSchema: { type: 'object', properties: { p: { type: 'string', pattern: '^\\d+$' } } },
  },
  {
    name: 'slowKeys',
    inputSchema: { type: 'object', patternProperties: { '^(a|b)+$': { type: 'string' } } },
  },
  {
    name: 'keys',
    inputSchema: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
  },
  {
    name: 'quadraticKeys',
    inputSchema: { type: 'object', patternProperties: { '^[a-z]+-[a-z]+$': { type: 'string' } } },
  },
  {
    name: 'draft7',
    inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['x'] },
  },
];

function nest(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

/** A client over a scripted server with `TOOLS`, whose tools/call answers "ran". */
async function client(options: { validateArguments?: boolean } = {}) {
  const { connection, server } = scriptedPair({
    tools: TOOLS,
    onRequest: (request, s) => s.reply(request.id, { content: [{ type: 'text', text: 'ran' }] }),
  });
  return { client: await connect({}, { connection, ...options }), server };
}

/** The McpError `promise` rejects with. */
async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    assert.ok(isMcpError(error), `want an McpError, got ${String(error)}`);
    return error;
  }
  assert.fail('want a rejection, got a result');
}

describe('validateArguments: true', () => {
  test('a violation is invalid_arguments, not_sent, names the path and the expected type, never the value', async () => {
    const { client: c, server } = await client();
    try {
      const cases: Array<[Record<string, unknown>, string, string | undefined]> = [
        [{ text: 5 }, '/text', 'string'],
        [{}, '/text', 'a value (required)'],
        [{ text: SECRET, n: 2.5 }, '/n', 'integer'],
        [{ text: SECRET, n: 1 }, '/n', undefined],
        [{ text: SECRET, list: [{ id: SECRET }] }, '/list/0/id', 'number'],
        [{ text: SECRET, list: [{}] }, '/list/0/id', 'a value (required)'],
        [{ text: SECRET, either: true }, '/either', 'string | number'],
        [{ text: SECRET, [SECRET]: 1 }, `/${SECRET}`, 'no value (the schema allows no such property)'],
        [{ text: SECRET, 'a/b~c': 1 }, '/a~1b~0c', 'string'],
      ];
      for (const [args, path, expected] of cases) {
        const error = await rejection(c.callTool('typed', args, { validateArguments: true }));
        assert.equal(error.kind, 'invalid_arguments', JSON.stringify(args));
        assert.equal(error.delivery, 'not_sent');
        const data = error.data as { tool: string; path: string; expected?: string };
        assert.equal(data.tool, 'typed');
        assert.equal(data.path, path, JSON.stringify(args));
        assert.equal(data.expected, expected, JSON.stringify(args));
        assert.ok(
          error.message.startsWith('tool typed on memory test server was not called: '),
          error.message,
        );
        assert.ok(error.message.includes(path), error.message);
        // The key of an extra property is a name (the caller's own), not a value; no value is ever in it.
        if (path !== `/${SECRET}`) assert.ok(!error.message.includes(SECRET), error.message);
        assert.ok(!JSON.stringify(error.toJSON()).includes(`"${SECRET}"`), 'no value in the data either');
      }
      assert.equal(server.sent('tools/call').length, 0, 'nothing was sent');
    } finally {
      await c.close();
    }
  });

  test('a path is cut at 200 characters', async () => {
    const { client: c } = await client({ validateArguments: true });
    try {
      const long = 'k'.repeat(300);
      const error = await rejection(c.callTool('typed', { text: 'x', [long]: 1 }));
      const data = error.data as { path: string };
      assert.equal(data.path, `/${'k'.repeat(199)}…`);
      assert.ok(error.message.length < 400, error.message);
    } finally {
      await c.close();
    }
  });

  test('valid arguments are sent; format is an annotation (2020-12), not asserted', async () => {
    const { client: c, server } = await client({ validateArguments: true });
    try {
      const result = await c.callTool('typed', {
        text: 'x',
        n: 3,
        list: [{ id: 1 }],
        either: 2,
        when: 'not a date',
      });
      assert.deepEqual(result.content, [{ type: 'text', text: 'ran' }]);
      assert.equal(server.sent('tools/call').length, 1);
    } finally {
      await c.close();
    }
  });

  test('a schema that cannot be used is invalid_tool, not_sent, and nothing is fetched or sent', async () => {
    const { client: c, server } = await client({ validateArguments: true });
    try {
      const cases: Array<[string, Record<string, unknown>, RegExp]> = [
        [
          'remote',
          { a: 1 },
          /has a \$ref that does not resolve inside it \(remote references are never fetched\)$/,
        ],
        ['missing', {}, /has a \$ref that does not resolve inside it/],
        ['cyclic', {}, /could not be evaluated$/],
        ['dialect', {}, /names a JSON Schema dialect the validator does not support$/],
        ['pattern', { p: 'x' }, /could not be evaluated$/],
        ['deep', {}, /is larger than can be checked \(64 levels, 20000 values\)$/],
        ['wide', {}, /is larger than can be checked \(64 levels, 20000 values\)$/],
      ];
      for (const [name, args, message] of cases) {
        // Twice: a refused schema is refused the same way from the cache.
        for (let round = 0; round < 2; round++) {
          const error = await rejection(c.callTool(name, args));
          assert.equal(error.kind, 'invalid_tool', name);
          assert.equal(error.delivery, 'not_sent', name);
          assert.match(error.message, message, name);
        }
      }
      assert.equal(server.sent('tools/call').length, 0);
    } finally {
      await c.close();
    }
  });

  test('the work bound grows with the arguments: 5,000 items through a $ref are all checked', async () => {
    const { client: c, server } = await client({ validateArguments: true });
    try {
      const list = Array.from({ length: 5000 }, () => ({ id: 1 }));
      assert.equal(textOf(await c.callTool('typed', { text: 'x', list })), 'ran');
      list.push({ id: 'last' as unknown as number });
      const error = await rejection(c.callTool('typed', { text: 'x', list }));
      assert.equal(error.kind, 'invalid_arguments');
      assert.equal((error.data as { path: string }).path, '/list/5000/id');
      assert.equal(server.sent('tools/call').length, 1);
    } finally {
      await c.close();
    }
  });

  test('an older dialect the schema names is used (draft-07)', async () => {
    const { client: c } = await client({ validateArguments: true });
    try {
      const error = await rejection(c.callTool('draft7', {}));
      assert.equal(error.kind, 'invalid_arguments');
      assert.equal((await c.callTool('draft7', { x: 1 })).isError, undefined);
    } finally {
      await c.close();
    }
  });

  test('the tool list is fetched first when there is none; a tool the server does not list is invalid_tool', async () => {
    const { client: c, server } = await client({ validateArguments: true });
    try {
      assert.equal(server.sent('tools/list').length, 0);
      const error = await rejection(c.callTool('nope', {}));
      assert.equal(error.kind, 'invalid_tool');
      assert.equal(error.delivery, 'not_sent');
      assert.match(
        error.message,
        /the server does not list it, so its arguments cannot be checked; its tools: /,
      );
      assert.equal(server.sent('tools/list').length, 1);
      await c.callTool('typed', { text: 'x' });
      assert.equal(server.sent('tools/list').length, 1, 'the list is reused');
      server.notify('notifications/tools/list_changed');
      await new Promise((resolve) => setImmediate(resolve));
      await c.callTool('typed', { text: 'x' });
      assert.equal(server.sent('tools/list').length, 2, 'listed again after list_changed');
    } finally {
      await c.close();
    }
  });

  test("a call's validateArguments: false wins over the client's; without the option nothing is checked", async () => {
    const strict = await client({ validateArguments: true });
    const plain = await client();
    try {
      await strict.client.callTool('typed', { text: 5 }, { validateArguments: false });
      assert.equal(strict.server.sent('tools/call').length, 1);
      await plain.client.callTool('typed', { text: 5 });
      assert.equal(plain.server.sent('tools/list').length, 0, 'no list without the option');
      assert.equal(plain.server.sent('tools/call').length, 1);
    } finally {
      await Promise.all([strict.client.close(), plain.client.close()]);
    }
  });

  test('against the demo server over stdio: echo with a number is refused before the server sees it', async () => {
    await withClient(
      demoServer(),
      async (demo) => {
        const error = await rejection(demo.callTool('echo', { text: 5 }));
        assert.equal(error.kind, 'invalid_arguments');
        assert.match(error.message, /at \/text: expected string$/);
        const ok = await demo.callTool('echo', { text: 'checked' });
        assert.deepEqual(ok.content, [{ type: 'text', text: 'checked' }]);
      },
      { validateArguments: true },
    );
  });
});

describe('validateArguments: a server pattern runs only where its cost is bounded', () => {
  test('an exponential pattern never runs: the call is sent and the server decides', {
    timeout: 20_000,
  }, async () => {
    const { client: c, server } = await client({ validateArguments: true });
    try {
      // `^(a+)+$` doubles its time with each "a" before the "!": 24 take ~0.1 s (were the pattern run, it
      // would refuse the value, and this test would fail); 40 would take hours.
      const result = await c.callTool('exponential', { p: `${'a'.repeat(24)}!` });
      assert.equal(textOf(result), 'ran');
      assert.equal(server.sent('tools/call').length, 1);
    } finally {
      await c.close();
    }
  });

  test('a polynomial pattern runs on short strings only; past its limit the server checks it', async () => {
    const { client: c, server } = await client({ validateArguments: true });
    try {
      for (let round = 0; round < 2; round++) {
        const error = await rejection(c.callTool('cubic', { p: 'aaa' }));
        assert.equal(error.kind, 'invalid_arguments');
        assert.deepEqual(error.data, { tool: 'cubic', path: '/p', keyword: 'pattern' });
        // 300 characters: `a*a*b` (two variable quantifiers, not anchored) runs on at most 256.
        assert.equal(textOf(await c.callTool('cubic', { p: 'a'.repeat(300) })), 'ran');
      }
      assert.equal(server.sent('tools/call').length, 2);
      const error = await rejection(c.callTool('anchored', { p: `${'1'.repeat(100_000)}a` }));
      assert.equal(error.kind, 'invalid_arguments');
      assert.match(error.message, /at \/p \(pattern\)$/);
      assert.equal(textOf(await c.callTool('anchored', { p: '1'.repeat(100_000) })), 'ran');
    } finally {
      await c.close();
    }
  });

  test('patternProperties: an exponential expression refuses the schema; property names are bounded', async () => {
    const { client: c, server } = await client({ validateArguments: true });
    try {
      const slow = await rejection(c.callTool('slowKeys', { ab: 'x' }));
      assert.equal(slow.kind, 'invalid_tool');
      assert.equal(slow.delivery, 'not_sent');
      assert.match(slow.message, /patternProperties expression that could take exponential time/);
      const wrong = await rejection(c.callTool('keys', { 'x-a': 1 }));
      assert.equal(wrong.kind, 'invalid_arguments');
      assert.equal(textOf(await c.callTool('keys', { 'x-a': 'fine' })), 'ran');
      const long = await rejection(c.callTool('keys', { [`x-${'a'.repeat(5000)}`]: 'x' }));
      assert.equal(long.kind, 'invalid_arguments');
      assert.match(long.message, /a property name of the arguments is longer than 4096 characters/);
      assert.equal(server.sent('tools/call').length, 1);
    } finally {
      await c.close();
    }
  });

  test('patternProperties expressions are charged on every property name: past the budget the schema is refused', async () => {
    const { client: c, server } = await client({ validateArguments: true });
    try {
      // `^[a-z]+-[a-z]+$` is quadratic: ~2^25 steps on a 4,000-character name, tried on each of 8 names.
      const args = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`${'a'.repeat(3999)}${i}`, 'x']));
      const error = await rejection(c.callTool('quadraticKeys', args));
      assert.equal(error.kind, 'invalid_tool');
      assert.equal(error.delivery, 'not_sent');
      assert.match(
        error.message,
        /its patternProperties expressions would take too long on the property names/,
      );
      assert.equal(textOf(await c.callTool('quadraticKeys', { 'a-b': 'x' })), 'ran');
      assert.equal(server.sent('tools/call').length, 1);
    } finally {
      await c.close();
    }
  });
});

describe('firstProblem', () => {
  test('with no error units it still says something', () => {
    assert.deepEqual(firstProblem([]), { path: '', keyword: 'unknown' });
  });
});
