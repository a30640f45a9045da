/**
 * Trust of project files: by path and content digest, kept in a private file in the user's autos-mcp
 * config directory; a changed file is untrusted again; a corrupt records file is a problem, not a crash.
 * And importing `autos-mcp/servers` (or `autos-mcp`) loads neither parser.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadServers, trustFile, trustRecordsFile, untrustFile } from '../../src/servers/index.js';
import { type Dirs, dirs } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let d: Dirs;
beforeEach(() => {
  d = dirs();
});
afterEach(() => d.cleanup());

const options = () => ({ home: d.home, env: {}, platform: 'linux' as const });
const load = () => loadServers({ cwd: d.proj, ...options() });

test('a project file is untrusted, trusted by its digest, untrusted again once it changes, and can be untrusted', async () => {
  const file = d.write(d.proj, '.mcp.json', JSON.stringify({ mcpServers: { s: { command: 'x' } } }));
  assert.equal((await load()).servers['s']?.trust, 'untrusted');
  const record = await trustFile(file, options());
  assert.equal(record.file, file);
  const trusted = await load();
  assert.equal(trusted.servers['s']?.trusted, true);
  assert.equal(trusted.files[0]?.sha256, record.sha256);
  const records = trustRecordsFile(options());
  assert.equal(records, path.join(d.home, '.config', 'autos-mcp', 'trusted-files.json'));
  assert.equal(statSync(records).mode & 0o777, 0o600);
  assert.deepEqual(
    readdirSync(path.dirname(records)).filter((name) => name.endsWith('.tmp')),
    [],
    'written atomically: no temp file left',
  );
  assert.equal(
    (JSON.parse(readFileSync(records, 'utf8')) as Record<string, { sha256: string }>)[file]?.sha256,
    record.sha256,
  );

  writeFileSync(file, JSON.stringify({ mcpServers: { s: { command: 'something-else' } } }));
  const changed = await load();
  assert.equal(changed.servers['s']?.trusted, false);
  assert.equal(changed.servers['s']?.trust, 'changed');

  await trustFile(file, options());
  assert.equal((await load()).servers['s']?.trusted, true);
  assert.equal(await untrustFile(file, options()), true);
  assert.equal((await load()).servers['s']?.trust, 'untrusted');
  assert.equal(await untrustFile(file, options()), false);
});

test('the same content at another path is not trusted (a relative command means another script there)', async () => {
  const text = JSON.stringify({ mcpServers: { s: { command: 'node', args: ['./server.mjs'] } } });
  const trusted = d.write(d.proj, 'a/.mcp.json', text);
  d.write(d.proj, '.mcp.json', text);
  await trustFile(trusted, options());
  assert.equal((await load()).servers['s']?.trusted, false);
});

test('a corrupt trust records file is a problem: nothing is trusted, everything else still loads', async () => {
  const file = d.write(d.proj, '.mcp.json', JSON.stringify({ mcpServers: { p: { command: 'x' } } }));
  d.write(d.home, '.cursor/mcp.json', JSON.stringify({ mcpServers: { u: { command: 'y' } } }));
  await trustFile(file, options());
  writeFileSync(trustRecordsFile(options()), '{ not json', { mode: 0o600 });
  const loaded = await load();
  assert.equal(loaded.servers['p']?.trusted, false);
  assert.equal(loaded.servers['u']?.trusted, true);
  assert.equal(loaded.problems.length, 1);
  assert.equal(loaded.problems[0]?.file, trustRecordsFile(options()));
  assert.match(
    loaded.problems[0]?.message ?? '',
    /trust records cannot be read, so no project file is trusted: .*is corrupt/,
  );
});

test('trusting a file that does not exist is a config error', async () => {
  await assert.rejects(
    trustFile(path.join(d.proj, 'nope.json'), options()),
    (error: Error & { kind?: string }) => {
      assert.equal(error.kind, 'config');
      assert.match(error.message, /does not exist: nothing was trusted/);
      return true;
    },
  );
});

test('importing autos-mcp and autos-mcp/servers loads neither parser; loadServers loads the one it needs', () => {
  // A resolve hook in the child records every package it is asked for.
  const hooks = `export async function resolve(specifier, context, next) {
    if (specifier === 'jsonc-parser' || specifier === 'smol-toml') process.stdout.write('loaded ' + specifier + '\\n');
    return next(specifier, context);
  }`;
  const script = `
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
    await import(${JSON.stringify(path.join(ROOT, 'src/index.ts'))});
    const { loadServers } = await import(${JSON.stringify(path.join(ROOT, 'src/servers/index.ts'))});
    console.log('imported');
    await loadServers({ only: ${JSON.stringify(d.write(d.proj, 'x.json', '{}'))}, home: ${JSON.stringify(d.home)}, env: {} });
    console.log('loaded a JSON file');`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.deepEqual(out.trim().split('\n'), ['imported', 'loaded jsonc-parser', 'loaded a JSON file']);
});
