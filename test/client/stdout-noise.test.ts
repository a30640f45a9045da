/**
 * What real stdio servers write to stdout besides MCP messages — a banner, log lines between and inside
 * exchanges, JSON log lines, a byte-order mark, CRLF line ends — is skipped, counted and reported, and a
 * flood past the bound fails the connection as `protocol`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, isMcpError } from '../../src/index.js';
import { fixture } from './helpers.js';

async function echoThrough(mode: string) {
  const client = await connect(fixture('noisy-server.mjs', [mode], { graceMs: 500 }));
  const tools = await client.listTools();
  const first = await client.callTool('echo', { text: 'one' });
  const second = await client.callTool('echo', { text: 'two' });
  const report = await client.close();
  return { tools, first, second, report };
}

describe('stdout noise is skipped, not fatal', () => {
  for (const [mode, lines] of [
    ['banner', 1],
    ['between', 8],
    ['json-log', 8],
  ] as const) {
    it(`${mode}: every call works and the close report counts ${lines} skipped lines`, async () => {
      const { tools, first, second, report } = await echoThrough(mode);
      assert.deepEqual(
        tools.map((t) => t.name),
        ['echo'],
      );
      assert.deepEqual(first.content, [{ type: 'text', text: 'one' }]);
      assert.deepEqual(second.content, [{ type: 'text', text: 'two' }]);
      const skipped = report.process?.skippedStdout;
      assert.ok(skipped, 'the close report says what was skipped');
      assert.equal(skipped.lines, lines);
      assert.ok(skipped.bytes > 0);
      assert.ok(skipped.last.length <= 5, 'a bounded tail');
      for (const line of skipped.last)
        assert.doesNotMatch(line, /supersecretvalue123/, 'previews are redacted');
    });
  }

  for (const mode of ['bom', 'crlf']) {
    it(`${mode}: nothing is skipped at all`, async () => {
      const { first, report } = await echoThrough(mode);
      assert.deepEqual(first.content, [{ type: 'text', text: 'one' }]);
      assert.equal(report.process?.skippedStdout, undefined);
    });
  }

  it('a call that then times out names what was skipped', async () => {
    const client = await connect(fixture('noisy-server.mjs', ['silent-noise'], { graceMs: 500 }));
    try {
      const error = await client.callTool('echo', { text: 'x' }, { timeoutMs: 300 }).catch((e: unknown) => e);
      assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
      assert.equal(error.kind, 'timeout');
      assert.match(
        error.message,
        /the server also wrote 1 line that is not an MCP message to stdout; the last: "about to do it/,
      );
      assert.doesNotMatch(error.message, /supersecretvalue123/);
    } finally {
      await client.close();
    }
  });

  it('a flood past maxSkippedLines fails the connection as protocol, within the bound', async () => {
    const client = await connect(
      fixture('noisy-server.mjs', ['flood', '5000'], { maxSkippedLines: 100, graceMs: 500 }),
    );
    try {
      const error = await client.callTool('echo', { text: 'x' }).catch((e: unknown) => e);
      assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
      assert.equal(error.kind, 'protocol');
      assert.match(
        error.message,
        /more than 100 lines \(maxSkippedLines\) to stdout that are not MCP messages/,
      );
      assert.doesNotMatch(error.message, /supersecretvalue123/);
    } finally {
      const report = await client.close();
      assert.equal(report.process?.skippedStdout?.lines, 101, 'it stopped at the first line past the bound');
    }
  });

  it('the default bound holds against a flood too', async () => {
    const client = await connect(fixture('noisy-server.mjs', ['flood', '20000'], { graceMs: 500 }));
    const error = await client.callTool('echo', { text: 'x' }).catch((e: unknown) => e);
    await client.close();
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'protocol');
    assert.match(error.message, /more than 1000 lines/);
  });

  it('maxSkippedLines: 0 restores the strict behaviour', async () => {
    const error = await connect(fixture('noisy-server.mjs', ['banner'], { maxSkippedLines: 0 })).catch(
      (e: unknown) => e,
    );
    assert.ok(isMcpError(error));
    assert.equal(error.kind, 'protocol');
    assert.match(error.message, /Server running on stdio/);
  });
});
