/**
 * The SKILL.md frontmatter reader (src/extensions/skills/frontmatter.ts) against the official SDK's: each
 * SKILL.md below is turned into an entry by `skillEntry` of `@modelcontextprotocol/server/ext/skills` (its
 * own YAML reader), and ours must read the same JSON. YAML outside the subset is refused, never misread.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { skillEntry } from '@modelcontextprotocol/server/ext/skills';
import { FrontmatterError, parseFrontmatter, sameJson } from '../../src/extensions/skills/frontmatter.js';

const doc = (yaml: string) => `---\n${yaml}---\n\nBody.\n`;

const SAME: Record<string, string> = {
  plain: 'name: demo\ndescription: Fill and merge PDF forms.\n',
  'quoted, escapes':
    'name: "demo"\ndescription: "Tab\\there, \\u00e9, \\e[31m, \\"q\\""\nlicense: \'it\'\'s MIT\'\n',
  'comments and blank lines': '# top\nname: demo # the name\n\ndescription: d\n  # indented comment\n',
  'typed scalars':
    'name: demo\ndescription: d\nversion: 1.5\ncount: 42\nhex: 0x1F\noctal: 0o17\nflag: true\nnone: ~\nempty:\n',
  'nested mapping':
    'name: demo\ndescription: d\nmetadata:\n  author: Ann\n  version: "1.0"\nextra:\n  deep:\n    key: value\n  n: 2\n',
  'block sequence': 'name: demo\ndescription: d\ntags:\n  - pdf\n  - "forms"\n  - 3\n',
  'compact sequence under a key': 'name: demo\ndescription: d\ntags:\n- a\n- b\n',
  'sequence of mappings': 'name: demo\ndescription: d\nsteps:\n  - run: build\n    with: x\n  - run: test\n',
  'flow sequence': 'name: demo\ndescription: d\nallowed: [Read, "Write", 3, true]\nnone: []\n',
  'literal block': 'name: demo\ndescription: |\n  line one\n    indented\n\n  line three\n',
  'literal block, strip and keep': 'name: demo\ndescription: |-\n  a\n  b\n\nkeep: |+\n  c\n\n\nafter: x\n',
  'folded block': 'name: demo\ndescription: >\n  one\n  two\n\n  three\n    more\n  four\n',
  'folded, strip': 'name: demo\ndescription: >-\n  one\n  two\n',
  'multi-line plain': 'name: demo\ndescription: a long\n  description that\n\n  goes on\n',
  'url and colons': 'name: demo\ndescription: see https://example.com/a:b for more\nkey with spaces: v\n',
  'quoted key': 'name: demo\ndescription: d\n"quoted key": 1\n',
  'a BOM and CRLF': '\uFEFFname: demo\r\ndescription: d\r\n',
};

describe('parseFrontmatter reads what the SDK reads', () => {
  for (const [label, yaml] of Object.entries(SAME)) {
    it(label, async () => {
      const text = yaml.startsWith('\uFEFF') ? `\uFEFF---\r\n${yaml.slice(1)}---\r\nBody.\r\n` : doc(yaml);
      const entry = await skillEntry('demo', { 'SKILL.md': text });
      assert.deepEqual(parseFrontmatter(text), entry.frontmatter);
    });
  }
});

describe('parseFrontmatter refuses what it does not read', () => {
  for (const [label, yaml] of Object.entries({
    anchor: 'name: &a demo\ndescription: d\n',
    alias: 'name: demo\ndescription: *a\n',
    tag: 'name: !!str demo\ndescription: d\n',
    'flow mapping': 'name: demo\ndescription: {a: 1}\n',
    'complex key': '? name\n: demo\n',
    'multi-line quoted': 'name: demo\ndescription: "one\n  two"\n',
    'tab indentation': 'name: demo\nmetadata:\n\tkey: v\n',
    'duplicate key': 'name: demo\nname: again\n',
    'a colon in a plain value': 'name: demo\ndescription: a: b\n',
    'not a mapping': '- a\n- b\n',
    'a __proto__ key': 'name: demo\n__proto__: x\n',
    infinity: 'name: demo\nn: .inf\n',
  })) {
    it(label, () => {
      assert.throws(() => parseFrontmatter(doc(yaml)), FrontmatterError);
    });
  }
  it('no frontmatter, or no closing line', () => {
    assert.throws(() => parseFrontmatter('# demo\n'), FrontmatterError);
    assert.throws(() => parseFrontmatter('---\nname: demo\n'), FrontmatterError);
  });
});

describe('sameJson', () => {
  it('compares as JSON: keys in any order, arrays in order, numbers and strings apart', () => {
    assert.ok(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }));
    assert.ok(!sameJson({ a: 1 }, { a: '1' }));
    assert.ok(!sameJson([1, 2], [2, 1]));
    assert.ok(!sameJson({ a: 1 }, { a: 1, b: undefined }));
  });
});
