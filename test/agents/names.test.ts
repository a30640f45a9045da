/**
 * Tool names as OpenAI and Anthropic accept them: every name given to a model matches the rule both APIs
 * publish (`^[a-zA-Z0-9_-]{1,64}$`), names are unique across servers, the reverse map leads back to the
 * exact (server, tool) pair, and a name the model invents is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  anthropicTools,
  openaiChatTools,
  openaiResponsesTools,
  resolveToolName,
} from '../../src/agents/index.js';
import { assignNames } from '../../src/agents/names.js';
import type { Tool } from '../../src/index.js';

/**
 * The published rules, written from the docs. OpenAI (Chat Completions `function.name`, Responses `name`):
 * "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64." Anthropic
 * (Messages `tools[].name`): "Must match the regex ^[a-zA-Z0-9_-]{1,64}$."
 */
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });

const HOSTILE = [
  'read.file',
  'fs/read',
  'a b',
  '',
  '\u202egnp.exe',
  'тест',
  '😀',
  '__proto__',
  'constructor',
  'x'.repeat(200),
  `${'y'.repeat(63)}.`,
  'line\nbreak',
  '\u0000',
];

test('plain valid names are kept as they are, single server and namespaced', () => {
  assert.deepEqual(assignNames([{ tool: 'echo' }, { tool: 'read_file' }, { tool: 'get-x' }]), [
    'echo',
    'read_file',
    'get-x',
  ]);
  assert.deepEqual(assignNames([{ server: 'demo', tool: 'echo' }]), ['demo__echo']);
});

test('hostile and long names become names both APIs accept, unique, each mapped back exactly', () => {
  for (const build of [openaiChatTools, anthropicTools]) {
    const { names } = build(HOSTILE.map(tool));
    const given = Object.keys(names);
    assert.equal(given.length, HOSTILE.length);
    for (const name of given) {
      assert.match(name, OPENAI_NAME);
      assert.match(name, ANTHROPIC_NAME);
    }
    assert.deepEqual(given.map((n) => resolveToolName(names, n).tool).sort(), [...HOSTILE].sort());
  }
  const long = assignNames([{ tool: 'x'.repeat(200) }])[0] ?? '';
  assert.equal(long.length, 64);
  assert.match(long, /^x{55}_[0-9a-f]{8}$/);
});

test('names are the same for the same set of tools, whatever their order', () => {
  const a = assignNames(HOSTILE.map((t) => ({ tool: t })));
  const b = assignNames([...HOSTILE].reverse().map((t) => ({ tool: t })));
  assert.deepEqual(a, [...b].reverse());
});

test('two servers with the same tools do not collide; neither do names that sanitize alike', () => {
  const source = {
    fs: [tool('read'), tool('read.file'), tool('read_file')],
    git: [tool('read'), tool('read.file')],
  };
  const { tools, names } = openaiResponsesTools(source);
  const given = tools.map((t) => t.name);
  assert.equal(new Set(given).size, 5);
  assert.ok(given.includes('fs__read') && given.includes('git__read') && given.includes('fs__read_file'));
  assert.deepEqual(names['git__read'], { server: 'git', tool: 'read' });
  const dotted = given.filter((n) => n.startsWith('fs__read_file_'));
  assert.equal(dotted.length, 1, 'fs read.file gets a hashed name beside fs read_file');
  assert.deepEqual(resolveToolName(names, dotted[0]), { server: 'fs', tool: 'read.file' });
  // A server key with the separator in it cannot take another pair's name.
  const tricky = openaiChatTools({ a__b: [tool('c')], a: [tool('b__c')] });
  assert.equal(new Set(Object.keys(tricky.names)).size, 2);
  assert.deepEqual(
    Object.values(tricky.names).sort((x, y) => (x.tool < y.tool ? -1 : 1)),
    [
      { server: 'a', tool: 'b__c' },
      { server: 'a__b', tool: 'c' },
    ],
  );
});

test('a name that copies a hashed name is not allowed to take it', () => {
  const hashed = assignNames([{ tool: 'a.b' }])[0] ?? '';
  const names = assignNames([{ tool: 'a.b' }, { tool: hashed }]);
  assert.equal(new Set(names).size, 2);
  for (const n of names) assert.match(n, OPENAI_NAME);
});

test('property: any set of (server, tool) pairs maps to unique valid names that map back', () => {
  const text = fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('a', 'a_b', 'a.b', 'a__b', '_', '-'));
  fc.assert(
    fc.property(
      fc.dictionary(
        fc.constantFrom('s', 's.t', 's__t', 'x'.repeat(70)),
        fc.uniqueArray(text, { maxLength: 8 }),
      ),
      (servers) => {
        const source = Object.fromEntries(
          Object.entries(servers).map(([key, list]) => [key, list.map(tool)]),
        );
        const { tools, names } = anthropicTools(source);
        const expected = Object.entries(servers).flatMap(([server, list]) =>
          list.map((t) => JSON.stringify([server, t])),
        );
        assert.equal(tools.length, expected.length);
        assert.equal(new Set(tools.map((t) => t.name)).size, tools.length);
        for (const t of tools) assert.match(t.name, ANTHROPIC_NAME);
        const back = tools.map((t) => {
          const target = resolveToolName(names, t.name);
          return JSON.stringify([target.server, target.tool]);
        });
        assert.deepEqual(back.sort(), expected.sort());
        // The map survives JSON (it is stored next to a conversation).
        assert.deepEqual(JSON.parse(JSON.stringify(names)), { ...names });
      },
    ),
    { numRuns: 300 },
  );
});

test('a name that is not in the map is refused with a clear error, never guessed', () => {
  const { names } = openaiChatTools([tool('echo'), tool('__proto__')]);
  for (const bad of ['Echo', 'echo ', 'toString', 'hasOwnProperty', 'constructor', '', 42, undefined]) {
    assert.throws(
      () => resolveToolName(names, bad),
      (error: { kind?: string; delivery?: string; message?: string }) =>
        error.kind === 'invalid_tool' &&
        error.delivery === 'not_sent' &&
        /not among the tools it was given/.test(error.message ?? ''),
      `want invalid_tool for ${String(bad)}`,
    );
  }
  assert.deepEqual(resolveToolName(names, '__proto__'), { tool: '__proto__' });
  // The name is model output: it reaches the message as one sanitized line.
  assert.throws(
    () => resolveToolName(names, 'x\u001b]0;pwned\u0007\nnext'),
    (error: Error) => !error.message.includes('\u001b') && !error.message.includes('\n'),
  );
});

test('every rename is reported in issues (renamed, with the name the model sees); a kept name is not', () => {
  const source = {
    my_server: [tool('files.read'), tool('echo')],
    a: [tool('b__c')],
    a__b: [tool('c')],
  };
  for (const build of [openaiChatTools, openaiResponsesTools, anthropicTools]) {
    const { names, issues } = build(source);
    const renamed = issues.filter((issue) => issue.action === 'renamed');
    assert.deepEqual(
      renamed.map(({ server, tool: name, name: given }) => ({ server, tool: name, given })).sort(byTool),
      Object.entries(names)
        .filter(([given, at]) => given !== `${at.server}__${at.tool}`)
        .map(([given, at]) => ({ server: at.server, tool: at.tool, given }))
        .sort(byTool),
    );
    const files = renamed.find((issue) => issue.tool === 'files.read');
    assert.match(files?.name ?? '', /^my_server__files_read_[0-9a-f]{8}$/);
    assert.match(files?.problem ?? '', /letters, digits/);
    // `a__b__c` twice: both get a suffix, each said to clash.
    assert.equal(renamed.filter((issue) => /same name/.test(issue.problem)).length, 2);
    assert.ok(!renamed.some((issue) => issue.tool === 'echo'), 'my_server__echo is kept, not reported');
  }
  assert.deepEqual(
    openaiChatTools([tool('echo')]).issues.filter((issue) => issue.action === 'renamed'),
    [],
  );
});

function byTool(
  a: { tool: string; server?: string | undefined },
  b: { tool: string; server?: string | undefined },
): number {
  const left = `${a.server}/${a.tool}`;
  const right = `${b.server}/${b.tool}`;
  return left < right ? -1 : left > right ? 1 : 0;
}
