/** Tests for the per-message headers of each revision (S26 streamable-http "Standard headers", S25 transports). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { legacyRequestHeaders, modernRequestHeaders } from '../../src/protocol/request-headers.js';

const V = '2026-07-28';

test('every modern request carries MCP-Protocol-Version and Mcp-Method', () => {
  assert.deepEqual(modernRequestHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, V), {
    'MCP-Protocol-Version': V,
    'Mcp-Method': 'tools/list',
  });
});

test('Mcp-Name is params.name for tools/call and prompts/get, params.uri for resources/read, raw when safe', () => {
  assert.equal(
    modernRequestHeaders(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'my-hyphenated-tool' } },
      V,
    )['Mcp-Name'],
    'my-hyphenated-tool',
  );
  assert.equal(
    modernRequestHeaders(
      { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'test_prompt' } },
      V,
    )['Mcp-Name'],
    'test_prompt',
  );
  assert.equal(
    modernRequestHeaders(
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///path/to/file%20name.txt' } },
      V,
    )['Mcp-Name'],
    'file:///path/to/file%20name.txt',
  );
  assert.equal(
    modernRequestHeaders(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: 'https://example.com/resource?id=123' },
      },
      V,
    )['Mcp-Name'],
    'https://example.com/resource?id=123',
  );
  assert.equal(
    modernRequestHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { name: 'x' } }, V)[
      'Mcp-Name'
    ],
    undefined,
  );
});

test('an unsafe tool name goes in the Base64 form', () => {
  const headers = modernRequestHeaders(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wetter\r\nX-Evil: 1' } },
    V,
  );
  assert.equal(headers['Mcp-Name'], `=?base64?${Buffer.from('wetter\r\nX-Evil: 1').toString('base64')}?=`);
});

test('tools/call adds Mcp-Param-* from the given params; Mcp-Param-Method stays apart from Mcp-Method', () => {
  const headers = modernRequestHeaders(
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 't', arguments: { m: 'test-method', r: null } },
    },
    V,
    [
      { name: 'Method', path: ['m'] },
      { name: 'Region', path: ['r'] },
    ],
  );
  assert.deepEqual(headers, {
    'MCP-Protocol-Version': V,
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 't',
    'Mcp-Param-Method': 'test-method',
  });
});

test('a method that is not header-safe is refused (Mcp-Method has no Base64 form)', () => {
  assert.throws(
    () => modernRequestHeaders({ jsonrpc: '2.0', id: 1, method: 'a b' }, V),
    (e: { kind?: string }) => e.kind === 'config',
  );
});

test('legacy headers carry the negotiated version only once known', () => {
  assert.deepEqual(legacyRequestHeaders(), {});
  assert.deepEqual(legacyRequestHeaders('2025-11-25'), { 'MCP-Protocol-Version': '2025-11-25' });
});
