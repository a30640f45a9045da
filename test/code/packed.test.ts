/**
 * autos-mcp/code as a user gets it: its export list is deliberate, and from the packed tarball installed
 * without dev dependencies a run works (the engine's .wasm found inside its own package, sucrase loaded for
 * TypeScript), with the sandbox boundary intact.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as code from '../../src/code/index.js';
import { installPacked } from '../helpers/package-build.js';

test('autos-mcp/code exports exactly these', () => {
  assert.deepEqual(Object.keys(code).sort(), ['DEFAULT_LIMITS', 'runCode']);
});

test('from the packed tarball, runCode runs JavaScript and TypeScript against a catalog', {
  timeout: 240_000,
}, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-code-pack-'));
  try {
    installPacked(dir);
    const script = `
      import { runCode } from 'autos-mcp/code';
      const catalog = { search: async () => [], describe: async () => ({}), call: async (ref, args) => ({ ref, args }) };
      const js = await runCode("return (await servers.demo.echo({ text: 'packed' })).args.text", { catalog });
      const ts = await runCode("const n: number = 2; return n * 21", { catalog });
      const fenced = await runCode("return typeof process + typeof require", { catalog });
      console.log(JSON.stringify([js.value, ts.value, fenced.value, js.calls.length]));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(out.trim()), ['packed', 42, 'undefinedundefined', 1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
