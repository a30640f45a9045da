/** Tests for the user header check: managed headers cannot be overridden, and fields must be valid. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkUserHeaders } from '../../src/protocol/managed-headers.js';

const isConfig = (e: { kind?: string }) => e.kind === 'config';

test('ordinary headers pass', () => {
  checkUserHeaders({ 'X-Api-Key': 'abc', 'User-Agent': 'me/1.0' }, { hasAuth: false });
  checkUserHeaders({ Authorization: 'Basic abc' }, { hasAuth: false });
});

test('managed MCP and content-negotiation headers are refused in any case', () => {
  for (const name of [
    'Mcp-Session-Id',
    'mcp-protocol-version',
    'MCP-METHOD',
    'Mcp-Name',
    'Mcp-Param-Region',
    'Content-Type',
    'accept',
    'Last-Event-ID',
    'Host',
    'Transfer-Encoding',
  ]) {
    assert.throws(() => checkUserHeaders({ [name]: 'x' }, { hasAuth: false }), isConfig, name);
  }
});

test('Authorization is refused only when a token or OAuth is configured', () => {
  assert.throws(() => checkUserHeaders({ authorization: 'Bearer x' }, { hasAuth: true }), isConfig);
});

test('invalid names, CR/LF values and duplicates are refused without echoing the value', () => {
  assert.throws(() => checkUserHeaders({ 'X Bad': 'v' }, { hasAuth: false }), isConfig);
  assert.throws(() => checkUserHeaders({ 'X:Bad': 'v' }, { hasAuth: false }), isConfig);
  assert.throws(
    () => checkUserHeaders({ 'X-Ok': 'secret\r\nX-Injected: 1' }, { hasAuth: false }),
    (e: { kind?: string; message: string }) => isConfig(e) && !e.message.includes('secret'),
  );
  assert.throws(() => checkUserHeaders({ 'X-Ok': 'é' }, { hasAuth: false }), isConfig);
  assert.throws(() => checkUserHeaders({ 'X-A': '1', 'x-a': '2' }, { hasAuth: false }), isConfig);
});
