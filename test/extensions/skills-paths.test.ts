/**
 * Where a manifest's files may go (src/extensions/skills/paths.ts) and what an entry must hold
 * (check.ts), without I/O: every unsafe path is refused, every ordinary one kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { skillProblem, skillRoot } from '../../src/extensions/skills/check.js';
import { collision, relativeSegments } from '../../src/extensions/skills/paths.js';

const ROOT = 'skill://acme/pdf';

describe('relativeSegments', () => {
  it('keeps ordinary paths, decoding escapes', () => {
    assert.deepEqual(relativeSegments(ROOT, `${ROOT}/SKILL.md`), { segments: ['SKILL.md'] });
    assert.deepEqual(relativeSegments(ROOT, `${ROOT}/references/a%20b.md`), {
      segments: ['references', 'a b.md'],
    });
    assert.deepEqual(relativeSegments(ROOT, `${ROOT}/caf%C3%A9/.hidden`), { segments: ['café', '.hidden'] });
  });

  for (const [why, uri] of [
    ['dot segments', `${ROOT}/../x`],
    ['encoded dot segments', `${ROOT}/%2e%2e/x`],
    ['an encoded slash', `${ROOT}/a%2Fb`],
    ['an encoded backslash', `${ROOT}/..%5Cx`],
    ['NUL', `${ROOT}/a%00`],
    ['a control character', `${ROOT}/a%1Bb`],
    ['a colon', `${ROOT}/c%3A`],
    ['a device name', `${ROOT}/nul.tar.gz`],
    ['a device name in any case', `${ROOT}/Com1`],
    ['a trailing dot', `${ROOT}/a.`],
    ['a trailing space', `${ROOT}/a%20`],
    ['an empty segment', `${ROOT}//a`],
    ['a name over 255 bytes', `${ROOT}/${'a'.repeat(256)}`],
    ['33 folders deep', `${ROOT}/${'a/'.repeat(32)}b`],
    ['another folder with the same prefix', 'skill://acme/pdf-2/x'],
    ['the folder itself', ROOT],
    ['another scheme', 'file:///etc/passwd'],
    ['a query', `${ROOT}/a?b`],
    ['a fragment', `${ROOT}/a#b`],
    ['a malformed escape', `${ROOT}/%E0%A4%A`],
    ['not a URI', 'not a uri'],
  ] as const) {
    it(`refuses ${why}`, () => {
      assert.ok('problem' in relativeSegments(ROOT, uri), uri);
    });
  }
});

describe('collision', () => {
  it('finds two names that differ in case or normalization, and a file where a folder must be', () => {
    assert.equal(collision([['a.txt'], ['A.TXT']]), 'A.TXT');
    assert.equal(collision([['caf\u00e9'], ['cafe\u0301']]), 'cafe\u0301');
    assert.equal(collision([['a'], ['a', 'b']]), 'a/b');
    assert.equal(collision([['a', 'b'], ['a']]), 'a');
    assert.equal(collision([['a', 'b'], ['a', 'c'], ['SKILL.md']]), undefined);
  });
});

describe('skillProblem and skillRoot', () => {
  const good = {
    uri: 'skill://pdf/SKILL.md',
    frontmatter: { name: 'pdf', description: 'd', extra: [1] },
    resources: [{ uri: 'skill://pdf/SKILL.md', digest: `sha256:${'a'.repeat(64)}`, size: 3 }],
  };
  it('keeps a well-formed entry and a dynamic one', () => {
    assert.equal(skillProblem(good), undefined);
    assert.equal(skillProblem({ ...good, resources: 'dynamic' }), undefined);
  });
  it('names what is wrong', () => {
    const file = good.resources[0];
    for (const [entry, want] of [
      [{ ...good, uri: 'skill://SKILL.md' }, /uri/],
      [{ ...good, uri: 'skill://pdf/README.md' }, /uri/],
      [{ ...good, frontmatter: null }, /frontmatter/],
      [{ ...good, frontmatter: { description: 'd' } }, /name/],
      [{ ...good, resources: 'all' }, /resources/],
      [{ ...good, resources: [{ ...file, digest: `sha256:${'A'.repeat(64)}` }] }, /digest/],
      [{ ...good, resources: [{ ...file, size: 1.5 }] }, /size/],
      [{ ...good, resources: [{ ...file, size: 2 ** 53 }] }, /size/],
      [{ ...good, _meta: [] }, /_meta/],
    ] as const)
      assert.match(skillProblem(entry) ?? '', want);
  });
  it('a SKILL.md directly under the scheme or with a query has no folder', () => {
    assert.equal(skillRoot('skill://pdf/SKILL.md'), 'skill://pdf');
    assert.equal(skillRoot('skill:///SKILL.md'), undefined);
    assert.equal(skillRoot('skill://pdf/SKILL.md?x'), undefined);
  });
});
