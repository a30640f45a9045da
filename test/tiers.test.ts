/**
 * The tier rule of test/tiers.ts holds: every file FULL_ONLY names exists and needs what its reason says;
 * every other file (the quick tier) reaches, through its relative imports, none of the helpers that need an
 * apt package or build the package, and packs or installs nothing itself.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FULL_ONLY, type FullOnly, ROOT, testFiles, tierFiles } from './tiers.js';

/** The helper each reason stands for (a file that reaches it needs what the reason says). */
const NEEDS: Readonly<Record<Exclude<FullOnly, 'slow'>, string>> = {
  browser: 'test/helpers/browser.ts',
  keyring: 'test/helpers/keyring-session.ts',
  postgres: 'test/helpers/postgres.ts',
  package: 'test/helpers/package-build.ts',
};

/** `npm pack` or `npm install` run by a test itself (the package reason, without the shared build). */
const PACKS = /'npm',\s*\[\s*'(?:pack|install)'/;

/** True when `text` runs PACKS in code (a line that is a string literal is test data: npm-notices.test.ts). */
function packs(text: string): boolean {
  return text.split('\n').some((line) => PACKS.test(line) && !/^\s*["`]/.test(line));
}

/** `file` and every test/ file it reaches through relative imports (src/ imports no test code). */
function reached(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || !file.startsWith('test/')) return seen;
  seen.add(file);
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  for (const [, spec = ''] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    const ts = target.replace(/\.js$/, '.ts');
    // A specifier that names no file is in a string (code a test writes for a consumer project).
    if (existsSync(path.join(ROOT, ts))) reached(ts, seen);
    else if (existsSync(path.join(ROOT, target))) reached(target, seen);
  }
  return seen;
}

/** What `file` needs, of the reasons that can be seen in its code. */
function needs(file: string): Set<FullOnly> {
  const found = new Set<FullOnly>();
  for (const dep of reached(file)) {
    for (const [reason, helper] of Object.entries(NEEDS))
      if (dep === helper && dep !== file) found.add(reason as FullOnly);
    if (dep.endsWith('.test.ts') || dep.startsWith('test/helpers/'))
      if (packs(readFileSync(path.join(ROOT, dep), 'utf8'))) found.add('package');
  }
  return found;
}

test('every file FULL_ONLY names is a test file', () => {
  const files = new Set(testFiles());
  for (const file of Object.keys(FULL_ONLY)) assert.ok(files.has(file), `${file} is not a *.test.ts file`);
});

test('a full-only file needs what its reason says (a browser, a keyring, PostgreSQL, the package)', () => {
  for (const [file, reason] of Object.entries(FULL_ONLY)) {
    if (reason === 'slow') continue;
    assert.ok(
      needs(file).has(reason),
      `${file} is full-only for "${reason}", but reaches no ${NEEDS[reason]}`,
    );
  }
});

test('a quick file needs no apt package and builds or packs nothing', () => {
  const quick = tierFiles('quick');
  assert.ok(quick.length > 50, `want most files in the quick tier, got ${quick.length}`);
  const wrong = quick
    .map((file) => ({ file, needs: [...needs(file)] }))
    .filter((entry) => entry.needs.length > 0);
  assert.deepEqual(wrong, [], 'list these in FULL_ONLY of test/tiers.ts, with the reason');
});

test('the full tier is every test file; the quick tier is the rest of FULL_ONLY', () => {
  const all = testFiles();
  assert.deepEqual(tierFiles('full'), all);
  assert.deepEqual(
    tierFiles('quick'),
    all.filter((file) => !(file in FULL_ONLY)),
  );
  assert.ok(all.includes('test/tiers.test.ts'), 'this file is found too');
});
