/**
 * The type-level cases (test/types/cases.ts) under `tsc --noEmit` with the project's strict options: the
 * file compiles, every `@ts-expect-error` in it marks a real error (an unused one fails tsc), and with the
 * directives taken out exactly the marked lines fail — so a type that gets looser (a narrowed result that
 * is a union again, content that no longer narrows) or stricter breaks this test.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CASES = path.join(ROOT, 'test/types/cases.ts');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const DIRECTIVE = '// @ts-expect-error';

/** Runs tsc on `file` with the project's compiler options; resolves with its diagnostics lines. */
async function check(file: string, dir: string): Promise<{ code: number; errors: string[] }> {
  const project = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  const config = path.join(dir, 'tsconfig.json');
  const { outDir: _out, rootDir: _root, ...options } = project.compilerOptions;
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { ...options, noEmit: true, typeRoots: [path.join(ROOT, 'node_modules/@types')] },
      files: [file],
    }),
  );
  try {
    await run(process.execPath, [TSC, '-p', config, '--pretty', 'false'], { cwd: ROOT });
    return { code: 0, errors: [] };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { code, errors: stdout.split('\n').filter((line) => line.includes('error TS')) };
  }
}

test('the type cases compile under strict, and every @ts-expect-error marks a real error', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-types-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const result = await check(CASES, dir);
  assert.deepEqual(result.errors, [], 'want no errors');
  assert.equal(result.code, 0);
});

test('without the directives, exactly the marked lines fail', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-types-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const lines = readFileSync(CASES, 'utf8').split('\n');
  const marked = new Set<number>();
  // In the temp directory (never the shared tree), its imports pointed at this checkout's src/.
  const mutated = path.join(dir, 'mutated.mts');
  const out = lines.map((line, index) => {
    if (!line.trim().startsWith(DIRECTIVE)) return line.replace("'../../src/", `'${ROOT}/src/`);
    marked.add(index + 2); // the next line, 1-based
    return '';
  });
  writeFileSync(mutated, out.join('\n'));
  assert.ok(marked.size >= 10, `want the cases to hold many expected errors, got ${marked.size}`);
  const result = await check(mutated, dir);
  const failing = new Set(
    result.errors
      .filter((line) => line.startsWith(mutated) || line.includes(path.basename(mutated)))
      .map((line) => Number(/\((\d+),\d+\)/.exec(line)?.[1])),
  );
  assert.deepEqual(
    [...failing].sort((a, b) => a - b),
    [...marked].sort((a, b) => a - b),
  );
});
