/**
 * Tests for x-mcp-header validation and Mcp-Param-* headers (S26/server/tools,
 * S26/basic/transports/streamable-http), and the tools of the official conformance suite's scenarios
 * `http-custom-headers` and `http-invalid-tool-headers`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeHeaderValue } from '../../src/protocol/header-value.js';
import { paramHeaders, validateToolHeaders } from '../../src/protocol/tool-headers.js';
import { customHeadersArgs, customHeadersTool } from '../fixtures/custom-headers-tool.js';

test('the http-custom-headers tool is valid and yields the conformance header table', () => {
  const check = validateToolHeaders(customHeadersTool);
  assert.ok(check.ok, check.ok ? '' : check.reason);
  const headers = paramHeaders(check.params, customHeadersArgs);
  assert.equal(headers['Mcp-Param-Region'], 'us-west1');
  assert.equal(headers['Mcp-Param-Priority'], '42');
  assert.equal(headers['Mcp-Param-Verbose'], 'false');
  assert.equal(headers['Mcp-Param-Debug'], 'true');
  assert.equal(headers['Mcp-Param-EmptyVal'], '');
  assert.equal(headers['Mcp-Param-Method'], 'test-method');
  assert.equal(headers['Mcp-Param-InternalSpace'], 'us west 1');
  const base64 = {
    NonAscii: 'non_ascii_val',
    Whitespace: 'whitespace_val',
    LeadingSpace: 'leading_space_val',
    TrailingSpace: 'trailing_space_val',
    ControlChar: 'control_char_val',
    CrLf: 'crlf_val',
    Tab: 'tab_val',
  } as const;
  for (const [name, arg] of Object.entries(base64)) {
    const raw = headers[`Mcp-Param-${name}`];
    assert.ok(raw?.startsWith('=?base64?') && raw.endsWith('?='), `want Base64 for ${name}, got ${raw}`);
    assert.equal(decodeHeaderValue(raw ?? ''), customHeadersArgs[arg]);
  }
  assert.equal(headers['Mcp-Param-Query'], undefined);
  assert.equal(headers['Mcp-Param-FloatVal'], undefined);
  assert.equal(Object.keys(headers).length, 14);
});

test('a null or absent value omits the header; an empty string keeps it', () => {
  const check = validateToolHeaders(customHeadersTool);
  assert.ok(check.ok);
  const headers = paramHeaders(check.params, {
    region: 'us-east1',
    priority: 1,
    verbose: null,
    empty_val: '',
  });
  assert.deepEqual(headers, {
    'Mcp-Param-Region': 'us-east1',
    'Mcp-Param-Priority': '1',
    'Mcp-Param-EmptyVal': '',
  });
});

const invalidTools: Array<[string, Record<string, unknown>]> = [
  ['invalid_empty_header', { value: { type: 'string', 'x-mcp-header': '' } }],
  ['invalid_object_header', { data: { type: 'object', 'x-mcp-header': 'Data' } }],
  ['invalid_array_header', { items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }],
  ['invalid_null_header', { nil: { type: 'null', 'x-mcp-header': 'Nil' } }],
  [
    'invalid_duplicate_same_case',
    {
      field1: { type: 'string', 'x-mcp-header': 'Region' },
      field2: { type: 'string', 'x-mcp-header': 'Region' },
    },
  ],
  [
    'invalid_duplicate_diff_case',
    {
      field1: { type: 'string', 'x-mcp-header': 'MyField' },
      field2: { type: 'string', 'x-mcp-header': 'myfield' },
    },
  ],
  ['invalid_space_in_name', { value: { type: 'string', 'x-mcp-header': 'My Region' } }],
  ['invalid_colon_in_name', { value: { type: 'string', 'x-mcp-header': 'Region:Primary' } }],
  ['invalid_non_ascii_name', { value: { type: 'string', 'x-mcp-header': 'Région' } }],
  ['invalid_control_char_name', { value: { type: 'string', 'x-mcp-header': 'Region\t1' } }],
];

for (const [name, properties] of invalidTools) {
  test(`the http-invalid-tool-headers tool ${name} is invalid`, () => {
    const check = validateToolHeaders({ name, inputSchema: { type: 'object', properties } });
    assert.equal(check.ok, false);
  });
}

test('the valid_tool of http-invalid-tool-headers is valid', () => {
  const check = validateToolHeaders({
    name: 'valid_tool',
    inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
  });
  assert.deepEqual(check, { ok: true, params: [{ name: 'Region', path: ['region'] }] });
});

test('more invalid annotations: number type, CR/LF, non-string, type arrays, reached through items/anyOf/$defs/$ref, on the root', () => {
  const cases: unknown[] = [
    { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
    { type: 'object', properties: { n: { type: 'string', 'x-mcp-header': 'A\r\nB' } } },
    { type: 'object', properties: { n: { type: 'string', 'x-mcp-header': 7 } } },
    { type: 'object', properties: { n: { 'x-mcp-header': 'N' } } },
    { type: 'object', properties: { n: { type: ['string', 'integer'], 'x-mcp-header': 'N' } } },
    { type: 'object', properties: { n: { type: ['string', 'null', 'null'], 'x-mcp-header': 'N' } } },
    { type: 'object', properties: { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'N' } } } },
    { type: 'object', properties: { a: { anyOf: [{ type: 'string', 'x-mcp-header': 'N' }] } } },
    { type: 'object', $defs: { d: { type: 'string', 'x-mcp-header': 'N' } } },
    { type: 'object', 'x-mcp-header': 'Root' },
    { type: 'object', allOf: [{ properties: { x: { type: 'string', 'x-mcp-header': 'X' } } }] },
  ];
  for (const inputSchema of cases) {
    assert.equal(validateToolHeaders({ name: 't', inputSchema }).ok, false, JSON.stringify(inputSchema));
  }
});

test('nested properties, nullable types, and data keywords are handled', () => {
  const check = validateToolHeaders({
    name: 't',
    inputSchema: {
      type: 'object',
      properties: {
        outer: {
          type: 'object',
          properties: { inner: { type: ['integer', 'null'], 'x-mcp-header': 'Inner' } },
        },
        'x-mcp-header': { type: 'string' },
        withDefault: { type: 'object', default: { 'x-mcp-header': 'NotAnAnnotation' } },
      },
    },
  });
  assert.deepEqual(check, { ok: true, params: [{ name: 'Inner', path: ['outer', 'inner'] }] });
  assert.deepEqual(paramHeaders(check.ok ? check.params : [], { outer: { inner: -7 } }), {
    'Mcp-Param-Inner': '-7',
  });
});

test('a hostile deep schema is refused, not a stack overflow', () => {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 10_000; i++) schema = { type: 'object', properties: { a: schema } };
  assert.equal(validateToolHeaders({ name: 'deep', inputSchema: schema }).ok, false);
});

test('argument values that cannot be a header are refused, never sent raw', () => {
  const params = [{ name: 'V', path: ['v'] }];
  assert.throws(
    () => paramHeaders(params, { v: { nested: 1 } }),
    (e: { kind?: string }) => e.kind === 'config',
  );
  assert.throws(
    () => paramHeaders(params, { v: 1.5 }),
    (e: { kind?: string }) => e.kind === 'config',
  );
  assert.throws(
    () => paramHeaders(params, { v: 'x'.repeat(10_000) }),
    (e: { kind?: string }) => e.kind === 'config',
  );
  assert.deepEqual(paramHeaders(params, { v: 'a\r\nX-Injected: 1' }), {
    'Mcp-Param-V': `=?base64?${Buffer.from('a\r\nX-Injected: 1').toString('base64')}?=`,
  });
  assert.deepEqual(paramHeaders(params, Object.create({ v: 'inherited' })), {});
});
