/**
 * Extension ids are checked by the `_meta` key rules with a mandatory prefix before anything starts; a
 * turned-on set declares each id (known ones with their module's settings, others as `{}`), and only a
 * module claims results; a server's `capabilities.extensions` is read as bounded data.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_EXTENSIONS,
  MAX_SERVER_EXTENSIONS,
  readServerExtensions,
  SKILLS_EXTENSION,
  TASKS_EXTENSION,
  turnOn,
} from '../../src/extensions/index.js';
import { isMcpError } from '../../src/index.js';
import { extensionIdProblem, MAX_EXTENSION_ID_CHARS } from '../../src/protocol/extension-id.js';

test('extension ids follow the _meta key rules, with the prefix mandatory', () => {
  for (const good of [
    'io.modelcontextprotocol/tasks',
    'com.example/x',
    'com.example-co.api/my_ext.v2',
    'a/b',
    'dev.mcp/ui-2',
  ])
    assert.equal(extensionIdProblem(good), undefined, good);
  for (const bad of [
    'tasks', // no prefix
    '/tasks',
    'io.modelcontextprotocol/',
    '1com.example/x', // a label starts with a letter
    'com-.example/x', // and ends with a letter or digit
    'com..example/x',
    'com.example/-x', // a name starts alphanumeric
    'com.example/x_', // and ends alphanumeric
    'com.example/x y',
    'com.example/x/y',
    'com.example/\x1b[31m',
    `com.example/${'x'.repeat(MAX_EXTENSION_ID_CHARS)}`,
  ])
    assert.notEqual(extensionIdProblem(bad), undefined, bad);
  assert.equal(extensionIdProblem(42), 'is not a string');
});

test('turnOn refuses a bad id as config naming it, a non-array, and more than the bound', () => {
  const refused = (ids: unknown, pattern: RegExp) => {
    assert.throws(
      () => turnOn(ids),
      (error: unknown) => isMcpError(error) && error.kind === 'config' && pattern.test(error.message),
    );
  };
  refused(['io.modelcontextprotocol/tasks', 'nope'], /extensions: "nope" is not prefix\/name/);
  refused('io.modelcontextprotocol/tasks', /must be an array/);
  refused([7], /extensions: number is not a string/);
  refused(
    Array.from({ length: MAX_EXTENSIONS + 1 }, (_, i) => `com.example/e${i}`),
    new RegExp(`at most ${MAX_EXTENSIONS}`),
  );
  // Repeats count once.
  assert.deepEqual(turnOn(Array.from({ length: MAX_EXTENSIONS + 5 }, () => 'com.example/same')).declared, {
    'com.example/same': {},
  });
});

test('nothing is declared when none is on; an unknown id is declared as {} and claims nothing', () => {
  assert.equal(turnOn(undefined).declared, undefined);
  assert.equal(turnOn([]).declared, undefined);
  const on = turnOn(['com.example/unmodelled', TASKS_EXTENSION]);
  assert.deepEqual(on.declared, { 'com.example/unmodelled': {}, [TASKS_EXTENSION]: {} });
  // Only the tasks module claims, only `task` results, only of tools/call (its "Supported Methods").
  assert.equal(on.claims('tools/call', 'task'), true);
  assert.equal(on.claims('prompts/get', 'task'), false);
  assert.equal(on.claims('tools/call', 'other'), false);
  assert.equal(turnOn(['com.example/unmodelled']).claims('tools/call', 'task'), false);
});

test("a server's extensions: valid ids with object values only, at most the bound, frozen", () => {
  assert.deepEqual(readServerExtensions({}), {});
  assert.deepEqual(readServerExtensions({ extensions: [] }), {});
  assert.deepEqual(readServerExtensions({ extensions: 'x' }), {});
  const read = readServerExtensions({
    extensions: {
      'com.example/ok': { level: 2 },
      'com.example/list': [1],
      'com.example/null': null,
      'com.example/text': 'yes',
      'not an id': {},
      [TASKS_EXTENSION]: {},
    },
  });
  assert.deepEqual(read, { 'com.example/ok': { level: 2 }, [TASKS_EXTENSION]: {} });
  assert.ok(Object.isFrozen(read));
  const many = Object.fromEntries(
    Array.from({ length: MAX_SERVER_EXTENSIONS + 50 }, (_, i) => [`com.example/e${i}`, {}]),
  );
  assert.equal(Object.keys(readServerExtensions({ extensions: many })).length, MAX_SERVER_EXTENSIONS);
});

test('the skills extension is a known module: declared as {}, following no result', () => {
  const on = turnOn([SKILLS_EXTENSION]);
  assert.deepEqual(on.declared, { [SKILLS_EXTENSION]: {} });
  assert.equal(on.claimer('skills/list', 'complete'), undefined);
});
