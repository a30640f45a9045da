/**
 * Docs are code: every ```ts block in README.md and docs/*.md (except ```ts no-run) is type-checked and run
 * from the repository root against the built package, imported by its name `autos-mcp` (the exports map).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, '.tmp/doc-examples');

interface Example {
  file: string;
  line: number;
  code: string;
  /** ```ts no-run: type-checked but not run (it needs a remote server). */
  run: boolean;
}

function examplesIn(file: string): Example[] {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = lines[i]?.trim();
    if (fence !== '```ts' && fence !== '```ts no-run') continue;
    const start = i + 1;
    const end = lines.indexOf('```', start);
    assert.ok(end > start, `${file}:${start}: unterminated code block`);
    found.push({ file, line: start, code: lines.slice(start, end).join('\n'), run: fence === '```ts' });
    i = end;
  }
  return found;
}

const files = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const examples = files.flatMap(examplesIn);

function ensureBuilt(): void {
  if (!existsSync(path.join(ROOT, 'dist/index.js')))
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT });
}

function exampleFile(example: Example): string {
  return path.join(OUT, `${example.file.replace(/[/.]/g, '_')}_${example.line}.ts`);
}

test('the docs hold runnable examples', () => {
  assert.ok(examples.length >= 6, `want at least 6 examples, found ${examples.length}`);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const example of examples) writeFileSync(exampleFile(example), `${example.code}\nexport {};\n`);
});

test('every example type-checks against the published types', () => {
  ensureBuilt();
  const tsconfig = {
    extends: '../../tsconfig.json',
    // Snippets show code as a user writes it (`process.env.TOKEN`, a client made and not used further):
    // the repository's own hygiene flags are for its sources, not for the reader's code.
    compilerOptions: {
      noEmit: true,
      rootDir: '../..',
      noUnusedLocals: false,
      noUnusedParameters: false,
      noPropertyAccessFromIndexSignature: false,
    },
    include: ['./*.ts'],
  };
  writeFileSync(path.join(OUT, 'tsconfig.json'), JSON.stringify(tsconfig));
  const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', OUT], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, `tsc found errors in doc examples:\n${run.stdout}${run.stderr}`);
});

for (const example of examples.filter((e) => e.run)) {
  test(`example ${example.file}:${example.line} runs`, () => {
    ensureBuilt();
    const run = spawnSync(process.execPath, ['--import', 'tsx', exampleFile(example)], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(
      run.status,
      0,
      `want exit 0, got ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`,
    );
  });
}
