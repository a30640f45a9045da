/**
 * The names of a generated tree, from hostile tool names (test/fixtures/hostile-tool-names.mjs): every
 * file name is a plain bounded word inside the folder, unique when case is ignored, never the folder's
 * own (`index`, `pins`) or a Windows device; every function name a plain identifier that is no reserved
 * word nor an export of the index; the same names whatever the order the server lists its tools in.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { derivedName } from '../../src/cli/commands/types-tree.js';
import type { ServerConfig } from '../../src/client/index.js';
import { INDEX_NAMES, MAX_NAME, serverFolder, treeNames } from '../../src/codegen/tree-names.js';
import { NAMES } from '../fixtures/lib/hostile-tool-names.mjs';

const DEVICES = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

describe('tree names from hostile tool names', () => {
  const names = treeNames(NAMES);

  test('every tool gets a file name that is a bounded plain word: no path, dot file, NUL, index or device', () => {
    assert.equal(names.size, NAMES.length);
    for (const [tool, { file }] of names) {
      assert.match(file, /^[A-Za-z0-9_]+$/, `file of ${JSON.stringify(tool)}: ${file}`);
      assert.ok(file.length <= MAX_NAME + 4, `file of ${JSON.stringify(tool)} is ${file.length} long`);
      assert.ok(!['index', 'pins'].includes(file.toLowerCase()), `${file} is a file of the folder's own`);
      assert.doesNotMatch(file, DEVICES);
    }
  });

  test('file names are unique when case is ignored; function names are unique', () => {
    const files = [...names.values()].map((n) => n.file.toLowerCase());
    assert.equal(new Set(files).size, files.length, `want unique, got ${files.join(' ')}`);
    const identifiers = [...names.values()].map((n) => n.identifier);
    assert.equal(new Set(identifiers).size, identifiers.length);
  });

  test('function names are identifiers, never a reserved word or a name the index declares', () => {
    for (const [tool, { identifier }] of names) {
      assert.match(identifier, /^[A-Za-z_$][A-Za-z0-9_$]*$/, `identifier of ${JSON.stringify(tool)}`);
      assert.ok(!INDEX_NAMES.has(identifier), `${identifier} is declared by index.ts`);
      assert.ok(!['delete', 'class'].includes(identifier), `${identifier} is a reserved word`);
    }
  });

  test('a function never takes the name of a type the tree declares', () => {
    const named = treeNames(['Tool1Input', 'x'], new Set(['Tool1Input', 'XInput']));
    assert.equal(named.get('Tool1Input')?.identifier, 'Tool1Input_2');
  });

  test('two 500-character names that share a start get different bounded names', () => {
    const long = NAMES.filter((n) => n.length > 400).map((n) => names.get(n)?.file ?? '');
    assert.equal(long.length, 2);
    assert.notEqual(long[0], long[1]);
    assert.ok(long.every((f) => f.length <= MAX_NAME));
  });

  test('the names do not depend on the order the tools are listed in', () => {
    const reversed = treeNames([...NAMES].reverse());
    assert.deepEqual([...reversed].sort(), [...names].sort());
  });

  test('a server folder is the name when plain, else a plain word; never a path or a device', () => {
    assert.equal(serverFolder('github'), 'github');
    assert.equal(serverFolder('my-server'), 'my-server');
    assert.equal(serverFolder('../../etc'), '_etc');
    assert.equal(serverFolder('..'), 'tool');
    assert.equal(serverFolder('CON'), 'CON_');
    assert.match(serverFolder(`a/${'b'.repeat(300)}`), /^a_b+_[0-9a-f]{8}$/);
  });
});

describe('the folder of a URL or command target without --name', () => {
  test('comes from the host or the package or script the command runs, never from the server', () => {
    const cases: Array<[ServerConfig, string]> = [
      [{ url: 'https://mcp.linear.app/sse' }, 'linear'],
      [{ url: 'http://127.0.0.1:3000/mcp' }, '127_0_0_1'],
      [{ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }, 'server-memory'],
      [{ command: 'node', args: ['/x/server-everything/dist/index.js', 'stdio'] }, 'server-everything'],
      [{ command: 'uvx', args: ['mcp-server-fetch'] }, 'mcp-server-fetch'],
      [{ command: '/usr/local/bin/my-server' }, 'my-server'],
    ];
    for (const [config, want] of cases) assert.equal(derivedName(config), want, JSON.stringify(config));
  });
});
