/**
 * Property tests of the plain-data validator that guards configs: every JSON value is accepted, and a
 * value that is not JSON data (function, class instance, symbol, bigint, cycle, NaN, ±Infinity,
 * accessor) is refused wherever it hides, with a reason naming its path.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findNonPlainData } from '../../src/config/plain-data.js';
import { must } from '../helpers/must.js';
import { RUNS } from './helpers.js';

class Widget {
  size = 1;
}

type Poison = { label: string; make: () => unknown };
const POISONS: Poison[] = [
  { label: 'function', make: () => () => 1 },
  { label: 'class instance', make: () => new Widget() },
  { label: 'Date', make: () => new Date(0) },
  { label: 'Map', make: () => new Map() },
  { label: 'symbol', make: () => Symbol('s') },
  { label: 'bigint', make: () => 10n },
  { label: 'NaN', make: () => Number.NaN },
  { label: 'Infinity', make: () => Number.POSITIVE_INFINITY },
  { label: '-Infinity', make: () => Number.NEGATIVE_INFINITY },
  {
    label: 'accessor',
    make: () =>
      Object.defineProperty({}, 'x', {
        get: () => 1,
        enumerable: true,
      }),
  },
  {
    label: 'cycle',
    make: () => {
      const a: Record<string, unknown> = { b: {} };
      (a['b'] as Record<string, unknown>)['back'] = a;
      return a;
    },
  },
];

/** Hides `poison` at the end of `path` (object keys or array slots) inside a copy of `host`. */
function plant(poison: unknown, path: Array<string | number>, host: unknown): unknown {
  let value = poison;
  for (const step of [...path].reverse()) {
    if (typeof step === 'number') {
      const array: unknown[] = Array.from({ length: step % 4 }, () => host);
      array.push(value);
      value = array;
    } else {
      value = { filler: host, [step]: value };
    }
  }
  return value;
}

describe('plain-data validator', () => {
  it('accepts any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), (value) => {
        assert.equal(findNonPlainData(value), undefined);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a function, class instance, symbol, bigint, cycle, NaN, Infinity or accessor wherever it hides', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...POISONS),
        fc.array(
          fc.oneof(
            fc.nat(5),
            fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s !== 'filler'),
          ),
          {
            maxLength: 6,
          },
        ),
        fc.jsonValue({ maxDepth: 2 }),
        (poison, path, host) => {
          const reason = findNonPlainData(plant(poison.make(), path, host));
          assert.equal(typeof reason, 'string', `want ${poison.label} refused at ${JSON.stringify(path)}`);
          assert.ok(
            must(reason, 'a reason').startsWith('config'),
            `want a path in the reason, got ${reason}`,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('never throws on anything (proxies and hostile getters aside), and never recurses without bound', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withNullPrototype: true,
          withTypedArray: true,
          withSparseArray: true,
        }),
        (value) => {
          const reason = findNonPlainData(value);
          assert.ok(reason === undefined || typeof reason === 'string');
        },
      ),
      { numRuns: RUNS },
    );
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.match(findNonPlainData(deep) ?? '', /deeper than/);
  });
});
