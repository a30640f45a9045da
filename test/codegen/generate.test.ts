/**
 * The pure parts of `autos-mcp types`: server text as comment text and literals, type-name stems, the
 * schema reduction's bounds (depth, size, recursion, remote `$ref`), and the module generator in process
 * with the real schema compiler (a 10,000-deep schema, which the client itself leaves out of a listing).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateModule, generateTree, loadCompiler, type ToolToType } from '../../src/codegen/index.js';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, safeSchema } from '../../src/codegen/safe-schema.js';
import { commentBody, escapeInvisible, jsDoc, propertyKey, typeStem } from '../../src/codegen/text.js';
import { isMcpError } from '../../src/errors/index.js';

const SHA256_DIGEST = `sha256:${'ab'.repeat(32)}`;

function deep(depth: number): unknown {
  const text = `${'{"type":"object","properties":{"d":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
  return JSON.parse(text);
}

function depthOf(schema: unknown): number {
  let depth = 0;
  let node = schema as { properties?: { d?: unknown } } | undefined;
  while (node?.properties?.d !== undefined) {
    depth++;
    node = node.properties.d as typeof node;
  }
  return depth;
}

describe('server text in generated source', () => {
  test('a comment body cannot close its comment or leave its line', () => {
    const body = commentBody('a */ b\u2028c\u2029d\re\r\nf \u001b]0;title\u0007g \u202eh');
    assert.equal(body, 'a *\\/ b\nc\nd\ne\nf g h');
    assert.ok(!jsDoc([body]).slice(3, -3).includes('*/'));
  });

  test('a comment body is bounded', () => {
    assert.ok(commentBody('x'.repeat(100_000), 500).length <= 500);
  });

  test('names that are not plain identifiers are quoted; stems come only from plain names', () => {
    assert.equal(propertyKey('read_text_file'), 'read_text_file');
    assert.equal(propertyKey('get-sum'), '"get-sum"');
    assert.equal(propertyKey('__proto__'), '"__proto__"');
    assert.equal(propertyKey('a\u2028b'), '"a\u2028b"');
    assert.equal(typeStem('read_text_file', 0), 'ReadTextFile');
    assert.equal(typeStem('get-sum', 1), 'GetSum');
    assert.equal(typeStem('*/ evil() /*', 2), 'Tool3');
    assert.equal(typeStem('ünïcode', 3), 'Tool4');
  });

  test('the final pass escapes separators, controls and bidi characters, and keeps the rest', () => {
    assert.equal(
      escapeInvisible('"a\u2028b\u202e\u0085" // ok\n\tx'),
      '"a\\u2028b\\u202e\\u0085" // ok\n\tx',
    );
  });
});

describe('schema reduction', () => {
  test('a 10,000-deep schema is cut at the depth bound, with a note', () => {
    const reduced = safeSchema(deep(10_000));
    assert.equal(depthOf(reduced.schema), MAX_SCHEMA_DEPTH);
    assert.match(reduced.notes.join(), /deeper than 32 levels/);
  });

  test('an exponential $ref graph stops at the node budget', () => {
    const $defs: Record<string, unknown> = { l0: { type: 'string' } };
    for (let i = 1; i <= 40; i++)
      $defs[`l${i}`] = { anyOf: [{ $ref: `#/$defs/l${i - 1}` }, { $ref: `#/$defs/l${i - 1}` }] };
    const reduced = safeSchema({ type: 'object', properties: { x: { $ref: '#/$defs/l40' } }, $defs });
    assert.ok(JSON.stringify(reduced.schema).split('"anyOf"').length - 1 <= MAX_SCHEMA_NODES);
    assert.match(reduced.notes.join(), /more than 5000 parts/);
  });

  test('local $refs are inlined, recursion is cut, other $refs are never followed', () => {
    const reduced = safeSchema({
      type: 'object',
      properties: {
        node: { $ref: '#/$defs/node' },
        web: { $ref: 'https://example.invalid/s.json' },
        file: { $ref: 'file:///etc/passwd' },
        escaped: { $ref: '#/$defs/a~1b' },
      },
      $defs: {
        node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } },
        'a/b': { type: 'integer' },
      },
    });
    assert.deepEqual(reduced.schema['properties'], {
      node: { type: 'object', properties: { next: {} } },
      web: {},
      file: {},
      escaped: { type: 'integer' },
    });
    assert.doesNotMatch(JSON.stringify(reduced.schema), /\$ref|\$defs|example\.invalid|passwd/);
  });

  test('generator keywords from the server are dropped; a property named __proto__ stays an own key', () => {
    const properties = JSON.parse(
      '{"__proto__": {"type": "string"}, "x": {"type": "string", "tsType": "evil()"}}',
    );
    const reduced = safeSchema({ type: 'object', properties });
    const kept = reduced.schema['properties'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(kept), ['__proto__', 'x']);
    assert.deepEqual(kept['x'], { type: 'string' });
  });
});

describe('generateModule', () => {
  test('a 10,000-deep schema becomes a type cut at the bound, in a module that declares only its names', async () => {
    const compile = await loadCompiler();
    const tools: ToolToType[] = [
      { tool: { name: 'deep', inputSchema: deep(10_000) }, digest: { digest: SHA256_DIGEST, parts: {} } },
      {
        tool: { name: '__proto__', inputSchema: { type: 'object' } },
        digest: { digest: SHA256_DIGEST, parts: {} },
      },
    ];
    const source = await generateModule({ tools, generator: 'test' }, compile);
    assert.match(source, /^export interface DeepInput \{$/m);
    assert.match(source, /Note: parts nested deeper than 32 levels are typed unknown\./);
    assert.match(source, /^ {2}\["__proto__"\]: \{ digest: /m, 'a computed key, not a prototype');
    const declared = [...source.matchAll(/^export (?:interface|type|const|function) (\w+)/gm)].map(
      (m) => m[1],
    );
    assert.deepEqual(declared.sort(), [
      'DeepInput',
      'Tool2Input',
      'Tools',
      'TypedResult',
      'bind',
      'pins',
      'withTools',
    ]);
  });

  test('no tool to type is an invalid_tool error', async () => {
    await assert.rejects(
      generateModule({ tools: [], generator: 'test' }, async () => ''),
      (error: unknown) => isMcpError(error) && error.kind === 'invalid_tool',
    );
  });

  test('a compiler that declares something else falls back to an object of unknown values', async () => {
    const tools: ToolToType[] = [
      { tool: { name: 'x', inputSchema: { type: 'object' } }, digest: { digest: SHA256_DIGEST, parts: {} } },
    ];
    const source = await generateModule(
      { tools, generator: 'test' },
      async () => 'export interface XInput {}\nexport const evil = 1;\n',
    );
    assert.match(source, /^export type XInput = \{ \[key: string\]: unknown \};$/m);
    assert.doesNotMatch(source, /evil/);
  });

  test('a digest that is not sha256 is refused rather than written', async () => {
    const tools: ToolToType[] = [
      { tool: { name: 'x', inputSchema: { type: 'object' } }, digest: { digest: '"; evil(); "', parts: {} } },
    ];
    await assert.rejects(
      generateModule({ tools, generator: 'test' }, async (_s, n) => `export interface ${n} {}`),
    );
  });
});

describe('generateTree', () => {
  const tools: ToolToType[] = [
    { tool: { name: 'x', inputSchema: { type: 'object' } }, digest: { digest: SHA256_DIGEST, parts: {} } },
  ];
  const compiler = async (_s: unknown, n: string) => `export interface ${n} {}`;

  test('index.ts, pins.ts and one file per tool, each starting with the marker', async () => {
    const files = await generateTree(
      { tools, generator: 'test', serverName: 's', listDigest: SHA256_DIGEST },
      compiler,
    );
    assert.deepEqual(
      files.map((f) => f.file),
      ['index.ts', 'pins.ts', 'x.ts'],
    );
    for (const f of files) assert.match(f.text, /^\/\/ @generated by autos-mcp types --tree/);
  });

  test('a list digest that is not sha256 is refused rather than written', async () => {
    await assert.rejects(
      generateTree({ tools, generator: 'test', serverName: 's', listDigest: '"; evil(); "' }, compiler),
      (error: unknown) => isMcpError(error) && error.kind === 'protocol',
    );
  });
});
