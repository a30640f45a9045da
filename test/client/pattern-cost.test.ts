/**
 * `patternInputLimit`: a server's `pattern` is read before it runs. Exponential shapes never run; the
 * others run on strings up to the length where the bound on their search (ways through each quantifier
 * and `|`, times the start positions when not anchored) stays small. Every quantifier form is read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_PATTERN, parsePattern, patternInputLimit } from '../../src/client/pattern-cost.js';

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
      // Quantifier bounds of 10 digits or more, and with leading zeros, are quantifiers too.
      '(a{1,9999999999})+',
      '(a{1,9999999999})+$',
      '(a{0000000001,})+',
      '(a{0000000001,0000000002})*',
      '(?:a{1,2}?)+?',
      // Choices in a row multiply: 2^40 ways through 40 groups.
      `^${'(a|a)'.repeat(40)}$`,
      `^${'a?'.repeat(40)}$`.replace(/\?/g, '{0,1}'),
    ])
      assert.equal(patternInputLimit(pattern), NEVER, pattern);
  });

  test('the limit is where the bound on the search stays small', () => {
    const cases: Array<[string, number]> = [
      ['^\\d{4}-\\d{2}-\\d{2}$', ALWAYS],
      ['abc', 1 << 20],
      ['^[a-z0-9-]+$', 1 << 20],
      ['^https?://', ALWAYS], // an optional `s`: two ways, whatever the length
      ['a*b', 4096],
      ['^(ab)+$', 1 << 20],
      ['^[a-z]+-[a-z]+$', 4096],
      ['a*a*b', 256],
      ['^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$', 256],
      ['^a?b?c?d?$', ALWAYS],
      ['a?b?c?d?', 1 << 20],
      ['^a|b+$', 4096],
      ['^a{2,5}b*?$', 1 << 20],
      ['^a{3}$', ALWAYS],
      ['^[+*?{]+', 1 << 20],
      ['\\p{L}+\\u{1F600}', 4096],
      ['^(?:ab)(?=c)(?<name>d)+$', 1 << 20],
      // Every quantifier form: leading zeros, many digits, lazy; escaped braces are text.
      ['^a{0000000003}$', ALWAYS],
      ['^a{0001,0000000005}?$', ALWAYS],
      ['^a{1,9999999999}$', 1 << 20],
      ['^a{1,}?$', 1 << 20],
      ['^\\{a+\\}$', 1 << 20],
      ['^[{}]+$', 1 << 20],
      ['^\\u{61}{2}\\p{Lu}{1,3}$', ALWAYS],
      // A counted repetition costs its count at every start position.
      ['a{1000}b', 256],
      ['a{60000}', 256],
      ['^a{60000}', ALWAYS],
      ['^(?:a{3}){5}$', ALWAYS],
      ['(?:ab){30}c', 4096],
      ['(a{99999999999999999999999999999999999999}){2}', 64], // tried up to the string's end
    ];
    for (const [pattern, limit] of cases) assert.equal(patternInputLimit(pattern), limit, pattern);
  });

  test(`a pattern longer than ${MAX_PATTERN} characters never runs; an invalid one is left to the validator`, () => {
    assert.equal(patternInputLimit(`^${'a'.repeat(MAX_PATTERN - 1)}`), ALWAYS);
    assert.equal(patternInputLimit('a'.repeat(MAX_PATTERN)), 4096); // 256 steps at each start
    assert.equal(patternInputLimit('a'.repeat(MAX_PATTERN + 1)), NEVER);
    assert.equal(patternInputLimit('('), ALWAYS);
    for (const invalid of ['\\p{', '(?<a', 'a{', '\\u{61'])
      assert.equal(parsePattern(invalid), undefined, `${invalid} is never parsed`);
  });
});
