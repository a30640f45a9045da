/**
 * docs/architecture.md states the import rules of src/ in one table and draws its layers in one picture; this
 * file holds src/ to both, so the page and the code cannot drift: every import of every module (static, `export … from`, type-only,
 * dynamic, `createRequire`) is read and judged (import-rules.ts; its own tests plant violations in an
 * in-memory file set). Each failure reads `src/a/x.ts imports src/b/y.ts: <rule>`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkImports, describe, folderOf, layersFromPage, rulesFromPage } from './import-rules.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PAGE = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

/**
 * Violations the tree has today that the rules already forbid, each removed by a step of issue 24 in flight
 * (§1: config stops importing transport; `transport/open.ts` moves to the client side and takes `envFrom`
 * resolution as a function, so neither transport nor client imports settings). An entry that no longer occurs
 * fails the test too: delete it in the commit that fixes it, until the list is empty.
 */
const KNOWN: readonly string[] = [
  // The one lazy import that opens the OS settings store when a config's `envFrom` names a setting and the
  // caller gave no `settings`: the public connect() lives in client, so the default is reached from there.
  'src/client/api.ts imports src/settings/settings.ts: client must not import settings',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [file] : [];
  });
}

const files = new Map(sourceFiles('src').map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));

/** The units the rules name: each folder of src/, and each file directly in it (`version`, `index`). */
const units = new Set([...files.keys()].map(folderOf));

test('every import in src/ keeps the rules docs/architecture.md states, and points down its layer picture', () => {
  const rules = [...rulesFromPage(PAGE), layersFromPage(PAGE, units)];
  assert.ok(rules.length >= 7, `want the page's rules, got ${rules.length}`);
  const found = checkImports(files, rules).map(describe);
  // A cycle is reported with the folders it runs through, which change as it is cut: compare without them.
  const key = (line: string): string => line.replace(/(no import cycle between folders) \(.*\)$/, '$1');
  const known = new Set(KNOWN);
  const fresh = [...new Set(found.filter((line) => !known.has(key(line))))];
  const gone = KNOWN.filter((line) => !found.some((seen) => key(seen) === line));
  assert.deepEqual(
    { fresh, gone },
    { fresh: [], gone: [] },
    [
      fresh.length > 0
        ? `imports that break the rules of docs/architecture.md:\n  ${fresh.join('\n  ')}`
        : '',
      gone.length > 0 ? `fixed, delete from KNOWN in this file:\n  ${gone.join('\n  ')}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
});

test('every folder of src/, and each file directly in it, has its row in the layer picture', () => {
  const layers = layersFromPage(PAGE, units);
  assert.ok(layers.kind === 'layers');
  assert.deepEqual(
    [...units].filter((unit) => !layers.rows.has(unit)),
    [],
    'in no row of the picture',
  );
});

test('every folder of src/ is described in docs/architecture.md', () => {
  const described = new Set([...PAGE.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((match) => match[1]));
  const folders = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  assert.deepEqual(
    folders.filter((folder) => !described.has(folder)),
    [],
    'folders of src/ with no row in the folder table',
  );
  assert.deepEqual(
    [...described].filter((folder) => folder !== undefined && !folders.includes(folder)),
    [],
    'rows of the folder table with no folder in src/',
  );
});
