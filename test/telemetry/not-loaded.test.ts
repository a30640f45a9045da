/**
 * Without OpenTelemetry nothing is loaded and nothing added: each case runs a client in a process of its own,
 * with a resolve hook that counts the imports of `@opentelemetry/api` (test/fixtures/trace-child.ts).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ROOT } from '../client/helpers.js';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-otel-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The `_meta` the server saw on each call, by revision, and how many times the API was resolved. */
async function child(mode: 'unset' | 'absent') {
  const log = path.join(dir, `${mode}.log`);
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'test/fixtures/trace-child.ts'), mode, log],
    { cwd: ROOT, timeout: 60_000 },
  );
  let resolved = 0;
  try {
    resolved = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    // no file: never resolved
  }
  const metas = Object.values(JSON.parse(stdout) as Record<string, Array<Record<string, unknown>>>).flat();
  return { metas, resolved };
}

describe('without OpenTelemetry, at 2025-11-25 and at 2026-07-28 (a connection each)', () => {
  it('not set up: @opentelemetry/api is never imported, and no trace key is sent', async () => {
    const { metas, resolved } = await child('unset');
    assert.equal(resolved, 0);
    assert.equal(metas.length, 6);
    for (const meta of metas) assert.deepEqual(Object.keys(meta).filter(isTraceKey), []);
  });

  it('set up but the package missing: one failed import for both connections, nothing sent', async () => {
    const { metas, resolved } = await child('absent');
    assert.equal(resolved, 1);
    assert.equal(metas.length, 6);
    for (const meta of metas) assert.deepEqual(Object.keys(meta).filter(isTraceKey), []);
  });
});

function isTraceKey(key: string): boolean {
  return key === 'traceparent' || key === 'tracestate' || key === 'baggage';
}
