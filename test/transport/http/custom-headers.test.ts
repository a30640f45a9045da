/**
 * End to end: the 2026 request headers computed by src/protocol reach a real server intact through
 * HttpConnection (conformance `http-custom-headers` table), and hostile tool arguments never inject a header.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { decodeHeaderValue } from '../../../src/protocol/header-value.js';
import { modernRequestHeaders } from '../../../src/protocol/request-headers.js';
import { validateToolHeaders } from '../../../src/protocol/tool-headers.js';
import { HttpConnection } from '../../../src/transport/http/index.js';
import { collector, json, options, result, startServer, type TestServer } from './test-server.js';

const servers: TestServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

const tool = {
  name: 'test_custom_headers',
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      [
        ['region', 'Region', 'string'],
        ['priority', 'Priority', 'integer'],
        ['verbose', 'Verbose', 'boolean'],
        ['debug', 'Debug', 'boolean'],
        ['empty_val', 'EmptyVal', 'string'],
        ['method_val', 'Method', 'string'],
        ['non_ascii_val', 'NonAscii', 'string'],
        ['whitespace_val', 'Whitespace', 'string'],
        ['leading_space_val', 'LeadingSpace', 'string'],
        ['trailing_space_val', 'TrailingSpace', 'string'],
        ['internal_space_val', 'InternalSpace', 'string'],
        ['control_char_val', 'ControlChar', 'string'],
        ['crlf_val', 'CrLf', 'string'],
        ['tab_val', 'Tab', 'string'],
      ].map(([prop, header, type]) => [prop, { type, 'x-mcp-header': header }]),
    ),
  },
};

const args = {
  region: 'us-west1',
  priority: 42,
  verbose: false,
  debug: true,
  empty_val: '',
  method_val: 'test-method',
  float_val: 2.5,
  non_ascii_val: 'Hello, 世界',
  whitespace_val: ' padded ',
  leading_space_val: ' us-west1',
  trailing_space_val: 'us-west1 ',
  internal_space_val: 'us west 1',
  control_char_val: 'line1\nline2',
  crlf_val: 'line1\r\nX-Injected: yes',
  tab_val: '\tindented',
  query: 'SELECT * FROM users',
};

test('the conformance header table arrives at the server as expected, and CR/LF never injects a header', async () => {
  const s = await startServer((req, res) =>
    json(res, 200, result(req.json?.['id'], { resultType: 'complete', content: [] })),
  );
  servers.push(s);
  const check = validateToolHeaders(tool);
  assert.ok(check.ok);
  const message = {
    jsonrpc: '2.0' as const,
    id: 1,
    method: 'tools/call',
    params: { name: 'test_custom_headers', arguments: args },
  };
  const conn = new HttpConnection(options(s.url));
  await conn.start(collector().events);
  await conn.send(message, { headers: modernRequestHeaders(message, '2026-07-28', check.params) });
  await conn.close();
  const h = s.requests[0]?.headers ?? {};
  assert.equal(h['mcp-method'], 'tools/call');
  assert.equal(h['mcp-name'], 'test_custom_headers');
  assert.equal(h['mcp-param-region'], 'us-west1');
  assert.equal(h['mcp-param-priority'], '42');
  assert.equal(h['mcp-param-verbose'], 'false');
  assert.equal(h['mcp-param-debug'], 'true');
  assert.equal(h['mcp-param-emptyval'], '');
  assert.equal(h['mcp-param-method'], 'test-method');
  assert.equal(h['mcp-param-internalspace'], 'us west 1');
  for (const [name, prop] of [
    ['nonascii', 'non_ascii_val'],
    ['whitespace', 'whitespace_val'],
    ['leadingspace', 'leading_space_val'],
    ['trailingspace', 'trailing_space_val'],
    ['controlchar', 'control_char_val'],
    ['crlf', 'crlf_val'],
    ['tab', 'tab_val'],
  ] as const) {
    const raw = String(h[`mcp-param-${name}`]);
    assert.match(raw, /^=\?base64\?[A-Za-z0-9+/=]*\?=$/, `want Base64 for ${name}, got ${raw}`);
    assert.equal(decodeHeaderValue(raw), args[prop]);
  }
  assert.equal(h['x-injected'], undefined);
  assert.equal(h['mcp-param-query'], undefined);
  assert.equal(h['mcp-param-floatval'], undefined);
});

test('a null annotated argument sends no header', async () => {
  const s = await startServer((req, res) => json(res, 200, result(req.json?.['id'])));
  servers.push(s);
  const check = validateToolHeaders(tool);
  assert.ok(check.ok);
  const message = {
    jsonrpc: '2.0' as const,
    id: 2,
    method: 'tools/call',
    params: {
      name: 'test_custom_headers_null',
      arguments: { region: 'us-east1', priority: 1, verbose: null, query: 'SELECT 1' },
    },
  };
  const conn = new HttpConnection(options(s.url));
  await conn.start(collector().events);
  await conn.send(message, { headers: modernRequestHeaders(message, '2026-07-28', check.params) });
  await conn.close();
  const h = s.requests[0]?.headers ?? {};
  assert.equal(h['mcp-param-region'], 'us-east1');
  assert.equal(h['mcp-param-priority'], '1');
  assert.equal('mcp-param-verbose' in h, false);
});
