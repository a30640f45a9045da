/**
 * `patternInputLimit`: a server's `pattern` is read before it runs. Exponential shapes never run; the
 * others run on strings up to a length set by their variable quantifiers and anchoring.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_PATTERN, patternInputLimit } from '../../src/client/pattern-cost.js';

const NEVER = 0;
const ALWAYS = Number.POSITIVE_INFINITY;

describe('patternInputLimit', () => {
  test('exponential shapes never run', () => {
    for (const pattern of [
      '^(a+)+$',
      '(a*)*b',
      '((a)+)+',
      '(a|ab)*c',
      '^(?:x|y)+$',
      '(a{1,3}){2,}',
      '(\\d+-)+',
      '((a|b))+',
      '(a)\\1',
      '(?<n>a)\\k<n>',
    ])
      assert.equal(patternInputLimit(pattern), NEVER, pattern);
  });

  test('the limit follows the variable quantifiers, one degree more when not anchored', () => {
    const cases: Array<[string, number]> = [
      ['^\\d{4}-\\d{2}-\\d{2}$', ALWAYS],
      ['abc', 1 << 20],
      ['^[a-z0-9-]+$', 1 << 20],
      ['^https?://', 1 << 20],
      ['a*b', 4096],
      ['^(ab)+$', 1 << 20],
      ['^[a-z]+-[a-z]+$', 4096],
      ['a*a*b', 256],
      ['^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$', 256],
      ['^a?b?c?d?$', 64],
      ['a?b?c?d?', NEVER],
      ['^a|b+$', 4096],
      ['^a{2,5}b*?$', 4096],
      ['^a{3}$', ALWAYS],
      ['^[+*?{]+', 1 << 20],
      ['\\p{L}+\\u{1F600}', 4096],
      ['^(?:ab)(?=c)(?<name>d)+$', 1 << 20],
    ];
    for (const [pattern, limit] of cases) assert.equal(patternInputLimit(pattern), limit, pattern);
  });

  test(`a pattern longer than ${MAX_PATTERN} characters never runs; an invalid one is left to the validator`, () => {
    assert.equal(patternInputLimit('a'.repeat(MAX_PATTERN)), 1 << 20);
    assert.equal(patternInputLimit('a'.repeat(MAX_PATTERN + 1)), NEVER);
    assert.equal(patternInputLimit('('), ALWAYS);
  });
});
