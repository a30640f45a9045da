/**
 * End to end: the 2026 request headers computed by src/protocol reach a real server intact through
 * HttpConnection (conformance `http-custom-headers` table), and hostile tool arguments never inject a header.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeHeaderValue } from '../../../src/protocol/header-value.js';
import { modernRequestHeaders } from '../../../src/protocol/request-headers.js';
import { validateToolHeaders } from '../../../src/protocol/tool-headers.js';
import { customHeadersArgs, customHeadersTool } from '../../fixtures/custom-headers-tool.js';
import { connectHttp } from '../../helpers/http-once.js';
import { json, result, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();

test('the conformance header table arrives at the server as expected, and CR/LF never injects a header', async () => {
  const s = await server((req, res) =>
    json(res, 200, result(req.json?.['id'], { resultType: 'complete', content: [] })),
  );
  const check = validateToolHeaders(customHeadersTool);
  assert.ok(check.ok);
  const message = {
    jsonrpc: '2.0' as const,
    id: 1,
    method: 'tools/call',
    params: { name: 'test_custom_headers', arguments: customHeadersArgs },
  };
  const { conn } = await connectHttp(s.url);
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
    assert.equal(decodeHeaderValue(raw), customHeadersArgs[prop]);
  }
  assert.equal(h['x-injected'], undefined);
  assert.equal(h['mcp-param-query'], undefined);
  assert.equal(h['mcp-param-floatval'], undefined);
});

test('a null annotated argument sends no header', async () => {
  const s = await server((req, res) => json(res, 200, result(req.json?.['id'])));
  const check = validateToolHeaders(customHeadersTool);
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
  const { conn } = await connectHttp(s.url);
  await conn.send(message, { headers: modernRequestHeaders(message, '2026-07-28', check.params) });
  await conn.close();
  const h = s.requests[0]?.headers ?? {};
  assert.equal(h['mcp-param-region'], 'us-east1');
  assert.equal(h['mcp-param-priority'], '1');
  assert.equal('mcp-param-verbose' in h, false);
});
