/**
 * Property tests of the `Mcp-Name`/`Mcp-Param-*` value encoder (S26/basic/transports/streamable-http,
 * "Value encoding"): every string, safe integer and boolean round-trips, and the encoded form is always a
 * valid header value — printable ASCII only, no leading or trailing whitespace.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isMcpError } from '../../src/errors/index.js';
import { decodeHeaderValue, encodeHeaderValue } from '../../src/protocol/header-value.js';
import { RUNS } from './helpers.js';

/** Strings a header value must survive: any Unicode, ASCII with controls, and sentinel look-alikes. */
const anyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(' ', '\t', '=', '?', 'base64', 'BASE64', 'a', '+', '/'), maxLength: 12 }),
  fc.string({ maxLength: 20 }).map((s) => `=?base64?${s}?=`),
);

function assertValidHeaderValue(encoded: string): void {
  assert.match(encoded, /^[\x20-\x7e]*$/, `want printable ASCII, got ${JSON.stringify(encoded)}`);
  assert.equal(encoded, encoded.trim(), `want no surrounding whitespace, got ${JSON.stringify(encoded)}`);
}

describe('header value encoding', () => {
  it('round-trips every well-formed string and always encodes to a valid header value', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const encoded = encodeHeaderValue(value);
        assertValidHeaderValue(encoded);
        assert.equal(decodeHeaderValue(encoded), value);
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('round-trips every safe integer and boolean', () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.boolean()), (value) => {
        const encoded = encodeHeaderValue(value);
        assertValidHeaderValue(encoded);
        const decoded = decodeHeaderValue(encoded);
        if (typeof value === 'boolean') assert.equal(decoded, String(value));
        else assert.equal(Number(decoded), value);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses numbers that are not safe integers with McpError kind config, never anything else', () => {
    const unsafe = fc.oneof(
      fc.double().filter((n) => !Number.isSafeInteger(n)),
      fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 64, Number.POSITIVE_INFINITY, Number.NaN, 0.5),
    );
    fc.assert(
      fc.property(unsafe, (value) => {
        assert.throws(
          () => encodeHeaderValue(value),
          (error: unknown) => isMcpError(error) && error.kind === 'config',
        );
      }),
      { numRuns: RUNS },
    );
  });
});
