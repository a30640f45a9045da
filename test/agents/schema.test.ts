/**
 * Schemas as each API accepts them, checked against the rules each publishes: OpenAI (function
 * `parameters` must be `type: 'object'` with no `oneOf`/`anyOf`/`allOf`/`enum`/`not` at the top; arrays need
 * `items`; strict mode: every object closed with `additionalProperties: false`, every property required, a
 * subset of keywords, 10 levels, 5000 properties, 1000 enum values) and Anthropic (`input_schema.type` is
 * `'object'`, no `oneOf`/`allOf`/`anyOf` at the top). A loosened constraint is always reported; a schema
 * past the bounds is left out and reported; a remote `$ref` is never fetched.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import {
  anthropicTools,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  openaiChatTools,
  openaiResponsesTools,
} from '../../src/agents/index.js';
import type { Tool } from '../../src/index.js';

type Schema = Record<string, unknown>;
const tool = (name: string, inputSchema: Schema): Tool => ({
  name,
  inputSchema: inputSchema as Tool['inputSchema'],
});

/** The top-level rules (OpenAI's error text: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level"). */
function checkOpenAITop(schema: Schema): void {
  assert.equal(schema['type'], 'object');
  for (const key of ['oneOf', 'anyOf', 'allOf', 'enum', 'not'])
    assert.ok(!(key in schema), `no ${key} at the top`);
}
/** Anthropic: "input_schema: JSON Schema object ... type: 'object'"; no oneOf, allOf or anyOf at the top. */
function checkAnthropicTop(schema: Schema): void {
  assert.equal(schema['type'], 'object');
  for (const key of ['oneOf', 'anyOf', 'allOf']) assert.ok(!(key in schema), `no ${key} at the top`);
}
/** OpenAI: an array schema without `items` is refused ("array schema missing items"), at any depth. */
function eachNode(value: unknown, visit: (node: Schema) => void): void {
  if (Array.isArray(value)) for (const v of value) eachNode(v, visit);
  else if (typeof value === 'object' && value !== null) {
    visit(value as Schema);
    for (const v of Object.values(value)) eachNode(v, visit);
  }
}
/** The strict-mode rules, written from the Structured Outputs "Supported schemas" section. */
function checkStrict(schema: Schema): void {
  const allowed = new Set([
    'type',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'enum',
    'const',
    'anyOf',
    '$ref',
    '$defs',
    'definitions',
    'description',
    'pattern',
    'format',
    'multipleOf',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'minItems',
    'maxItems',
  ]);
  const walk = (node: Schema): void => {
    for (const key of Object.keys(node)) assert.ok(allowed.has(key), `strict: ${key} is not supported`);
    if (node['type'] === 'object' || 'properties' in node) {
      assert.equal(node['additionalProperties'], false);
      assert.deepEqual(
        [...((node['required'] as string[]) ?? [])].sort(),
        Object.keys((node['properties'] as Schema) ?? {}).sort(),
      );
    }
    for (const map of ['properties', '$defs'])
      for (const sub of Object.values((node[map] as Schema) ?? {})) walk(sub as Schema);
    if (node['items']) walk(node['items'] as Schema);
    for (const sub of (node['anyOf'] as Schema[]) ?? []) walk(sub);
  };
  walk(schema);
}

const REAL: Tool[] = [
  tool('search', {
    type: 'object',
    properties: {
      q: { type: 'string' },
      tags: { type: 'array' },
      nested: { type: 'object', properties: { list: { type: ['array', 'null'] } } },
    },
    required: ['q'],
  }),
  tool('either', {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'string' } },
    anyOf: [{ required: ['a'] }, { required: ['b'] }],
  }),
  tool('plain', { type: 'object' }),
];

test("OpenAI and Anthropic definitions obey each API's top-level and array rules", () => {
  for (const { tools } of [openaiChatTools(REAL)])
    for (const t of tools) checkOpenAITop(t.function.parameters);
  for (const t of openaiResponsesTools(REAL).tools) {
    checkOpenAITop(t.parameters);
    eachNode(t.parameters, (node) => {
      if (node['type'] === 'array' || (Array.isArray(node['type']) && node['type'].includes('array')))
        assert.ok('items' in node, 'array schema has items');
    });
  }
  for (const t of anthropicTools(REAL).tools) checkAnthropicTop(t.input_schema);
  const chat = openaiChatTools(REAL).tools[0];
  assert.deepEqual(chat, {
    type: 'function',
    function: {
      name: 'search',
      parameters: {
        type: 'object',
        properties: {
          q: { type: 'string' },
          tags: { type: 'array', items: {} },
          nested: { type: 'object', properties: { list: { type: ['array', 'null'], items: {} } } },
        },
        required: ['q'],
      },
      strict: false,
    },
  });
});

test('a constraint an API refuses is reported as loosened, never dropped silently', () => {
  for (const build of [openaiChatTools, anthropicTools]) {
    const { issues } = build(REAL);
    assert.deepEqual(
      issues.map(({ tool: t, path, action }) => ({ tool: t, path, action })),
      [{ tool: 'either', path: '/anyOf', action: 'loosened' }],
    );
  }
  // The input is never changed (the client's copy is the server's data).
  assert.ok('anyOf' in (REAL[1]?.inputSchema ?? {}));
});

test('strict mode applies only where it loses nothing; elsewhere each reason is reported', () => {
  const closed = tool('closed', {
    type: 'object',
    title: 'T',
    properties: {
      id: { type: 'string', format: 'uuid', default: 'x' },
      list: {
        type: 'array',
        items: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      },
    },
    required: ['id', 'list'],
  });
  const open = tool('open', {
    type: 'object',
    properties: { a: { type: 'string', minLength: 2 }, b: { type: 'string' } },
    required: ['a'],
  });
  const map = tool('map', { type: 'object', properties: {}, additionalProperties: { type: 'string' } });
  const { tools, issues } = openaiChatTools([closed, open, map], { strict: true });
  const [c, o, m] = tools;
  assert.equal(c?.function.strict, true);
  const strictParams: Schema = c?.function.parameters ?? {};
  checkStrict(strictParams);
  assert.deepEqual((strictParams['properties'] as Schema)['id'], {
    type: 'string',
    format: 'uuid',
  });
  assert.equal(o?.function.strict, false);
  assert.equal(m?.function.strict, false);
  // The non-strict ones are sent as they were (nothing closed or dropped).
  assert.equal(o?.function.parameters['additionalProperties'], undefined);
  assert.deepEqual(issues.map((i) => `${i.tool} ${i.path} ${i.action}`).sort(), [
    'map /additionalProperties not_strict',
    'open /properties/a/minLength not_strict',
    'open /required not_strict',
  ]);
  // Anthropic has no strict option here: the same tools come out unchanged apart from the top-level rules.
  assert.equal(anthropicTools([closed]).tools[0]?.input_schema['title'], 'T');
});

test('strict mode: the published limits (nesting, properties, enum values) are checked', () => {
  let deep: Schema = { type: 'object', properties: {}, required: [] };
  for (let i = 0; i < 11; i++) deep = { type: 'object', properties: { x: deep }, required: ['x'] };
  const manyProps = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: 'string' }]));
  const tools = [
    tool('deep', deep),
    tool('wide', { type: 'object', properties: manyProps, required: Object.keys(manyProps) }),
    tool('enums', {
      type: 'object',
      properties: { e: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } },
      required: ['e'],
    }),
  ];
  const { tools: out, issues } = openaiResponsesTools(tools, { strict: true });
  assert.deepEqual(
    out.map((t) => t.strict),
    [false, false, false],
  );
  assert.deepEqual(
    [
      ...new Set(
        issues
          .map((i) => i.problem.replace(/ \(strict mode\)/, ''))
          .filter((p) => /deeper|more than/.test(p)),
      ),
    ].sort(),
    ['more than 1000 enum values', 'more than 5000 properties', 'objects nested deeper than 10'],
  );
});

test('a schema deeper than the bound, or not an object schema, is left out and reported', () => {
  let deep: Schema = { type: 'string' };
  for (let i = 0; i < MAX_SCHEMA_DEPTH + 5; i++) deep = { type: 'array', items: deep };
  const deepData: unknown[] = [];
  let cursor = deepData;
  for (let i = 0; i < MAX_SCHEMA_DEPTH + 5; i++) {
    const next: unknown[] = [];
    cursor.push(next);
    cursor = next;
  }
  const tools = [
    tool('deep', { type: 'object', properties: { a: deep } }),
    tool('deep-data', { type: 'object', properties: { a: { enum: [deepData] } } }),
    tool('not-object', { type: 'string' }),
    tool('ok', { type: 'object' }),
  ];
  for (const build of [openaiChatTools, anthropicTools]) {
    const { names, issues } = build(tools);
    assert.deepEqual(Object.keys(names), ['ok']);
    assert.deepEqual(
      issues.map((i) => `${i.tool} ${i.action} ${i.name === undefined}`),
      ['deep left_out true', 'deep-data left_out true', 'not-object left_out true'],
    );
  }
  // More values than the bound (wide, not deep): left out too; one under it is kept.
  const values = (n: number): Tool =>
    tool('wide', { type: 'object', properties: { e: { enum: Array.from({ length: n }, (_, i) => i) } } });
  assert.equal(openaiChatTools([values(MAX_SCHEMA_NODES)]).tools.length, 0);
  assert.deepEqual(
    openaiChatTools([values(MAX_SCHEMA_NODES)]).issues[0]?.problem,
    `the input schema has more than ${MAX_SCHEMA_NODES} values`,
  );
  assert.equal(openaiChatTools([values(MAX_SCHEMA_NODES - 10)]).tools.length, 1);
  // 10k-deep: bounded, no stack overflow.
  let veryDeep: Schema = {};
  for (let i = 0; i < 10_000; i++) veryDeep = { not: veryDeep };
  assert.equal(anthropicTools([tool('x', { type: 'object', properties: { v: veryDeep } })]).tools.length, 0);
});

test('a remote $ref is never fetched: it is left out of the schema and reported; local ones stay', async () => {
  let fetched = 0;
  const server = createServer((_req, res) => {
    fetched++;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const schema = {
      type: 'object',
      $defs: { n: { type: 'integer' } },
      properties: { remote: { $ref: `http://127.0.0.1:${port}/schema.json` }, local: { $ref: '#/$defs/n' } },
    };
    const { tools, issues } = anthropicTools([tool('refs', schema)]);
    const props = tools[0]?.input_schema['properties'] as Schema;
    assert.deepEqual(props['remote'], {});
    assert.deepEqual(props['local'], { $ref: '#/$defs/n' });
    assert.deepEqual(
      issues.map((i) => `${i.path} ${i.action}`),
      ['/properties/remote/$ref loosened'],
    );
    assert.equal(fetched, 0);
  } finally {
    server.close();
  }
});

test('server keys like __proto__ stay data: own properties, no prototype touched', () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"object","properties":{},"default":{"__proto__":{"polluted":true}}}}}',
  );
  const { tools } = openaiChatTools([tool('p', schema)]);
  const props = tools[0]?.function.parameters['properties'] as Schema;
  assert.ok(Object.hasOwn(props, '__proto__'));
  assert.equal(Object.getPrototypeOf(props), Object.prototype);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(JSON.parse(JSON.stringify(props)), '__proto__')?.value, {
    type: 'string',
  });
});

test("descriptions are the server's text, cut only when asked and then reported", () => {
  const described: Tool = { name: 'd', description: 'x'.repeat(2000), inputSchema: { type: 'object' } };
  assert.equal(openaiChatTools([described]).tools[0]?.function.description?.length, 2000);
  const cut = openaiChatTools([described], { maxDescriptionLength: 1024 });
  assert.equal(cut.tools[0]?.function.description?.length, 1024);
  assert.deepEqual(
    cut.issues.map((i) => i.action),
    ['cut'],
  );
  const titled: Tool = { name: 't', title: 'A title', inputSchema: { type: 'object' } };
  assert.equal(anthropicTools([titled]).tools[0]?.description, 'A title');
  assert.ok(!('description' in (anthropicTools([tool('n', { type: 'object' })]).tools[0] ?? {})));
});
