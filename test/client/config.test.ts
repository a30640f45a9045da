/** normalizeConfig: plain data only, clear config errors, defaults, and no side effects. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isErrorKind, normalizeConfig, type ServerConfig } from '../../src/index.js';

function refused(config: unknown, pattern: RegExp): void {
  assert.throws(
    () => normalizeConfig(config as ServerConfig),
    (error: unknown) => isErrorKind(error, 'config') && pattern.test(error.message),
    `want a config error matching ${pattern}`,
  );
}

test('a stdio config gets defaults and keeps the command whole (never split on spaces)', () => {
  const config = normalizeConfig({ command: '/opt/My Server/bin/server', args: ['--flag', 'a b'] });
  assert.equal(config.transport, 'stdio');
  if (config.transport !== 'stdio') return;
  assert.equal(config.stdio.command, '/opt/My Server/bin/server');
  assert.deepEqual(config.stdio.args, ['--flag', 'a b']);
  assert.equal(config.timeoutMs, 60_000);
  assert.equal(config.maxMessageBytes, 16 * 1024 * 1024);
  assert.equal(config.protocolVersion, '2025-11-25');
  assert.equal(config.stdio.stderr, 'capture');
  assert.equal(config.clientInfo.name, 'autos-mcp');
  assert.equal(config.target, 'stdio server "server"');
});

test('an HTTP config: loopback http allowed, remote http refused, https fine', () => {
  assert.equal(normalizeConfig({ url: 'http://127.0.0.1:3000/mcp' }).transport, 'http');
  assert.equal(normalizeConfig({ url: 'http://localhost:3000/mcp' }).transport, 'http');
  assert.equal(normalizeConfig({ url: 'https://example.com/mcp' }).target, 'https://example.com/mcp');
  refused({ url: 'http://example.com/mcp' }, /loopback/);
  refused({ url: 'ftp://example.com/mcp' }, /http/);
});

test('functions, class instances and unknown keys are refused; handlers belong in options', () => {
  refused({ command: 'x', onElicitation: () => {} }, /function/);
  refused({ command: 'x', env: new Map() }, /Map/);
  refused({ command: 'x', comand: 'typo' }, /unknown key "comand"/);
  refused({ command: 'x', url: 'https://a' }, /exactly one/);
  refused({}, /exactly one/);
  refused(null, /expected an object/);
});

test('bad values name the key', () => {
  refused({ command: '' }, /command/);
  refused({ command: 'x', args: ['ok', 1] }, /args/);
  refused({ command: 'x', timeoutMs: -1 }, /timeoutMs/);
  refused({ command: 'x', timeoutMs: Number.NaN }, /finite|timeoutMs/);
  refused({ command: 'x', protocolVersion: '2024-11-05' }, /protocolVersion/);
  refused({ command: 'x', env: { A: 1 } }, /env\.A/);
  refused({ command: 'x', stderr: 'pipe' }, /stderr/);
  refused({ url: 'https://a/mcp', headers: { 'Mcp-Session-Id': 'x' } }, /Mcp-Session-Id/i);
  refused({ url: 'https://a/mcp', authToken: 't', headers: { Authorization: 'Bearer x' } }, /Authorization/i);
});

test('a config error never echoes a secret value', () => {
  try {
    normalizeConfig({ url: 'https://user:hunter2-secret@example.com/mcp' });
    assert.fail('want a config error');
  } catch (error) {
    assert.ok(isErrorKind(error, 'config'));
    assert.doesNotMatch(error.message, /hunter2/);
  }
});

test('undefined optional fields count as not set', () => {
  const config = normalizeConfig({ url: 'https://a.example/mcp', authToken: undefined, headers: undefined });
  assert.equal(config.transport, 'http');
});
