/**
 * The `tools` filter of a server config (`allow`, `deny`; exact names and `*` globs): its validation and
 * bounds in `normalizeConfig`, the glob matcher against a fully escaped reference, and its effect on a
 * real server (the official SDK v2 fixture `drifting-tools.mjs`) in both revisions: filtered tools are in
 * `excluded` with the reason, and a call to one is refused before anything is sent — in one-shot
 * `callTool`, before the server is even started.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import { globMatch } from '../../src/client/tool-filter.js';
import { normalizeConfig } from '../../src/config/index.js';
import { callToolOnce, connect, isMcpError, type StdioServerConfig, withClient } from '../../src/index.js';
import { scriptedPair } from '../helpers/memory-server.js';
import { fixture } from './helpers.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-filter-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture server, logging every request it receives to a file in this test's directory. */
function drifting(extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return fixture('drifting-tools.mjs', [], { env: { DRIFT_LOG: path.join(dir, 'seen.log') }, ...extra });
}

/** The requests the server received, as `method name` lines. */
function seen(): string[] {
  const file = path.join(dir, 'seen.log');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.trimEnd())
        .filter(Boolean)
    : [];
}

function configError(config: unknown): string {
  try {
    normalizeConfig(config as StdioServerConfig);
  } catch (error) {
    assert.ok(isMcpError(error), 'an McpError');
    assert.equal(error.kind, 'config');
    assert.equal(error.delivery, 'not_sent');
    return error.message;
  }
  assert.fail('want a config error, got none');
}

describe('globMatch', () => {
  test('exact names and * globs', () => {
    const cases: Array<[string, string, boolean]> = [
      ['echo', 'echo', true],
      ['echo', 'echo2', false],
      ['*', '', true],
      ['*', 'anything', true],
      ['read_*', 'read_file', true],
      ['read_*', 'read_', true],
      ['read_*', 'xread_file', false],
      ['*_file', 'write_file', true],
      ['*_file', 'write_files', false],
      ['a*b*c', 'abc', true],
      ['a*b*c', 'axxbyyc', true],
      ['a*b*c', 'acb', false],
      ['a*a', 'a', false],
      ['a*a', 'aa', true],
      ['**', 'x', true],
      ['ab*ba', 'aba', false],
      ['.*', 'x', false],
      ['.*', '.x', true],
      ['[a]*', 'a', false],
      ['Echo', 'echo', false],
    ];
    for (const [pattern, name, want] of cases)
      assert.equal(globMatch(pattern, name), want, `${pattern} vs ${name}: want ${want}`);
  });

  test('agrees with a fully escaped reference RegExp on any pattern and name', () => {
    const alphabet = fc.constantFrom('a', 'b', '*', '.', '(', '\\', '?', '+', '[', '$');
    const reference = (pattern: string) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((piece) => piece.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'))
          .join('.*')}$`,
        's',
      );
    fc.assert(
      fc.property(
        fc.string({ unit: alphabet, maxLength: 12 }),
        fc.string({ unit: alphabet, maxLength: 16 }),
        (pattern, name) => globMatch(pattern, name) === reference(pattern).test(name),
      ),
      { numRuns: 3000 },
    );
  });
});

describe('tools in normalizeConfig', () => {
  const base = { command: 'node' };

  test('a valid filter is kept; absent means every tool', () => {
    assert.equal(normalizeConfig(base).toolFilter, undefined);
    assert.deepEqual(normalizeConfig({ ...base, tools: { allow: ['a*'], deny: ['ab'] } }).toolFilter, {
      allow: ['a*'],
      deny: ['ab'],
    });
    assert.deepEqual(
      normalizeConfig({ url: 'https://mcp.example.com/mcp', tools: { deny: [] } }).toolFilter,
      {
        deny: [],
      },
    );
  });

  test('bad shapes are config errors naming the field, never the pattern', () => {
    assert.match(configError({ ...base, tools: ['echo'] }), /tools must be an object/);
    assert.match(
      configError({ ...base, tools: { allowed: ['echo'] } }),
      /tools\.allowed is not a tools field/,
    );
    assert.match(configError({ ...base, tools: { allow: 'echo' } }), /tools\.allow must be an array/);
    assert.match(
      configError({ ...base, tools: { deny: [1] } }),
      /tools\.deny\[0\] must be a non-empty string/,
    );
    assert.match(
      configError({ ...base, tools: { deny: [''] } }),
      /tools\.deny\[0\] must be a non-empty string/,
    );
    const secretish = 'sk-live-0123456789\u001b[2J';
    const message = configError({ ...base, tools: { allow: ['ok', secretish] } });
    assert.match(message, /tools\.allow\[1\] holds a control character/);
    assert.ok(!message.includes('sk-live'), `the pattern is not quoted: ${message}`);
  });

  test('bounds: 256 patterns per list, 512 characters, 16 stars', () => {
    const many = Array.from({ length: 256 }, (_, i) => `t${i}`);
    assert.equal(
      normalizeConfig({ ...base, tools: { allow: many, deny: many } }).toolFilter?.allow?.length,
      256,
    );
    assert.match(configError({ ...base, tools: { deny: [...many, 'x'] } }), /more than 256 patterns/);
    normalizeConfig({ ...base, tools: { allow: ['x'.repeat(512)] } });
    assert.match(configError({ ...base, tools: { allow: ['x'.repeat(513)] } }), /longer than 512 characters/);
    normalizeConfig({ ...base, tools: { allow: ['*'.repeat(16)] } });
    assert.match(configError({ ...base, tools: { allow: ['a*'.repeat(17)] } }), /more than 16 \* wildcards/);
  });
});

for (const protocolVersion of ['2025-11-25', '2026-07-28'] as const) {
  describe(`filters against the SDK v2 fixture at ${protocolVersion}`, () => {
    test('listed tools are filtered; the filtered ones are excluded with the reason', async () => {
      const config = drifting({ protocolVersion, tools: { allow: ['echo', 'read_*'], deny: ['*_dir'] } });
      await withClient(config, async (client) => {
        const list = await client.listToolsDetailed();
        assert.deepEqual(
          list.tools.map((t) => t.name),
          ['echo', 'read_file'],
        );
        assert.deepEqual(Object.keys(list.digests), ['echo', 'read_file']);
        assert.deepEqual(list.excluded, [
          { name: 'read_dir', reason: 'filtered out by tools.deny' },
          { name: 'write_file', reason: 'not in tools.allow' },
          { name: 'delete_file', reason: 'not in tools.allow' },
          { name: 'rugpull', reason: 'not in tools.allow' },
        ]);
        assert.deepEqual(
          (await client.listTools()).map((t) => t.name),
          ['echo', 'read_file'],
        );
      });
    });

    test('a call to a filtered tool is refused as invalid_tool, not_sent, and never reaches the server', async () => {
      await withClient(drifting({ protocolVersion, tools: { deny: ['*_file'] } }), async (client) => {
        const before = seen().length;
        for (const name of ['delete_file', 'write_file']) {
          const error = await client.callTool(name, {}).catch((e: unknown) => e);
          assert.ok(isMcpError(error), 'an McpError');
          assert.equal(error.kind, 'invalid_tool');
          assert.equal(error.delivery, 'not_sent');
          assert.match(
            error.message,
            new RegExp(`^tool ${name} on .* was not called: filtered out by tools.deny$`),
          );
        }
        // Refused on the name alone: no tools/list was needed, nothing at all was sent.
        assert.deepEqual(seen().slice(before), []);
        const ok = await client.callTool('echo', { text: 'still works' });
        assert.equal(ok.isError, undefined);
        assert.deepEqual(seen().slice(before), ['tools/call echo']);
      });
    });

    test('one-shot callTool refuses a filtered tool before the server is started', async () => {
      const config = drifting({ protocolVersion, tools: { allow: ['echo'] } });
      const error = await callToolOnce(config, 'delete_file', {}).catch((e: unknown) => e);
      assert.ok(isMcpError(error), 'an McpError');
      assert.equal(error.kind, 'invalid_tool');
      assert.equal(error.delivery, 'not_sent');
      assert.match(error.message, /delete_file .* was not called: not in tools.allow/);
      assert.deepEqual(seen(), [], 'the server never started (it logs every request, initialize first)');
      const result = await callToolOnce(config, 'echo', { text: 'x' });
      assert.equal(result.isError, undefined);
      assert.ok(seen().includes('tools/call echo'));
    });
  });
}

test('allow: [] lets nothing through; the filter applies to a connection given in options too', async () => {
  const { connection, server } = scriptedPair({
    tools: [
      { name: 'echo', inputSchema: { type: 'object' } },
      { name: 'other', inputSchema: { type: 'object' } },
    ],
  });
  const client = await connect({ tools: { allow: [] } }, { connection });
  try {
    const list = await client.listToolsDetailed();
    assert.deepEqual(list.tools, []);
    assert.deepEqual(
      list.excluded.map((e) => e.reason),
      ['not in tools.allow', 'not in tools.allow'],
    );
    const error = await client.callTool('echo').catch((e: unknown) => e);
    assert.ok(isMcpError(error) && error.kind === 'invalid_tool');
    assert.equal(server.sent('tools/call').length, 0);
  } finally {
    await client.close();
  }
});
