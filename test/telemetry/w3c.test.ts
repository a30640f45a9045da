/** The W3C text forms put in `_meta` (pure): traceparent, and baggage within W3C's limits. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baggage, MAX_BAGGAGE_BYTES, MAX_BAGGAGE_MEMBERS, traceparent } from '../../src/telemetry/w3c.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

test('traceparent is version 00, the ids and two hex digits of flags; invalid ids give none', () => {
  assert.equal(traceparent(TRACE, SPAN, 1), `00-${TRACE}-${SPAN}-01`);
  assert.equal(traceparent(TRACE, SPAN, 0), `00-${TRACE}-${SPAN}-00`);
  assert.equal(traceparent('0'.repeat(32), SPAN, 1), undefined);
  assert.equal(traceparent(TRACE, '0'.repeat(16), 1), undefined);
  assert.equal(traceparent(TRACE.toUpperCase(), SPAN, 1), undefined);
  assert.equal(traceparent(`${TRACE}0`, SPAN, 1), undefined);
});

test('baggage encodes values and keeps properties; an empty list is none', () => {
  const metadata = { toString: () => 'ttl=60' };
  assert.equal(
    baggage([
      ['user', { value: 'a b,c' }],
      ['k', { value: 'v', metadata }],
    ]),
    'user=a%20b%2Cc,k=v;ttl=60',
  );
  assert.equal(baggage([]), undefined);
});

test(`baggage stops at ${MAX_BAGGAGE_MEMBERS} members and ${MAX_BAGGAGE_BYTES} bytes`, () => {
  const many = Array.from({ length: MAX_BAGGAGE_MEMBERS + 20 }, (_, i) => [`k${i}`, { value: 'v' }] as const);
  assert.equal(baggage(many)?.split(',').length, MAX_BAGGAGE_MEMBERS);
  const big = Array.from({ length: 10 }, (_, i) => [`k${i}`, { value: 'x'.repeat(1000) }] as const);
  const kept = baggage(big) ?? '';
  assert.ok(Buffer.byteLength(kept) <= MAX_BAGGAGE_BYTES, `${Buffer.byteLength(kept)} bytes`);
  assert.equal(kept.split(',').length, 8);
  // A member too large on its own is left out; a smaller one after it still fits.
  assert.equal(
    baggage([
      ['huge', { value: 'x'.repeat(MAX_BAGGAGE_BYTES) }],
      ['s', { value: '1' }],
    ]),
    's=1',
  );
});
