/** Tests for the endpoint URL policy: https anywhere, http only on loopback, no credentials in the URL. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpointUrl } from '../../src/protocol/url-policy.js';

const isConfig = (e: { kind?: string }) => e.kind === 'config';

test('https is accepted anywhere and http on loopback', () => {
  for (const url of [
    'https://mcp.example.com/mcp',
    'http://127.0.0.1:3000/mcp',
    'http://127.1.2.3/',
    'http://localhost:8080',
    'http://app.localhost/mcp',
    'http://[::1]:9/mcp',
    'http://2130706433/',
  ]) {
    assert.equal(checkEndpointUrl(url).href, new URL(url).href);
  }
});

test('plain http to a remote host is a config error naming loopback', () => {
  assert.throws(
    () => checkEndpointUrl('http://mcp.example.com/mcp'),
    (e: { kind?: string; message: string }) => isConfig(e) && /only allowed on loopback/.test(e.message),
  );
  assert.throws(() => checkEndpointUrl('http://10.0.0.1/mcp'), isConfig);
  assert.throws(() => checkEndpointUrl('http://localhost.example.com/'), isConfig);
});

test('credentials in the URL are refused without echoing them', () => {
  assert.throws(
    () => checkEndpointUrl('https://user:s3cret@mcp.example.com/mcp'),
    (e: { kind?: string; message: string }) =>
      isConfig(e) && !e.message.includes('s3cret') && /authToken/.test(e.message),
  );
});

test('other schemes and garbage are refused', () => {
  for (const url of [
    'ftp://h/x',
    'file:///etc/passwd',
    'ws://localhost/',
    'not a url',
    'javascript:alert(1)',
  ]) {
    assert.throws(() => checkEndpointUrl(url), isConfig, url);
  }
});
