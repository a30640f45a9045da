/**
 * Property tests of `redact`: a planted secret, in any of the credential forms errors and logs carry
 * (`Bearer X`, `Authorization: X`, `token=X`, `"api_key":"X"`, `https://u:X@h`), never survives, whatever
 * text surrounds it. Over-masking is accepted; leaking is not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { redact } from '../../src/internal/redact.js';
import { RUNS } from './helpers.js';

/** Secrets as real systems mint them: opaque, 8–48 characters of the token alphabet. */
const secret = fc
  .stringMatching(/^[A-Za-z0-9][A-Za-z0-9._~+/-]{7,47}$/)
  // A secret that is one of the words of its own form would be found in the form itself.
  .filter((s) => !/^(bearer|basic|authorization|token|api_key|redacted)/i.test(s));

const FORMS: ReadonlyArray<readonly [string, (x: string) => string]> = [
  ['Bearer X', (x) => `Bearer ${x}`],
  ['bearer X (lowercase)', (x) => `bearer ${x}`],
  ['Authorization: X', (x) => `Authorization: ${x}`],
  ['Authorization: Bearer X', (x) => `Authorization: Bearer ${x}`],
  ['token=X', (x) => `token=${x}`],
  ['access_token=X in a query', (x) => `/cb?state=1&access_token=${x}&x=1`],
  ['"api_key":"X"', (x) => `"api_key":"${x}"`],
  ['"api_key": "X" (spaced)', (x) => `{"api_key": "${x}"}`],
  // Python's repr of a dict and YAML, as servers print them to stderr.
  ["'api_key': 'X' (Python repr)", (x) => `{'api_key': '${x}'}`],
  ['api_key: "X" (YAML)', (x) => `api_key: "${x}"`],
  // A `/` in userinfo must be percent-encoded (RFC 3986 §3.2.1), else it ends the authority.
  ['https://u:X@h', (x) => `https://u:${x.replaceAll('/', '%2F')}@h`],
];

/** Surrounding text: arbitrary Unicode, and prose-like text with separators. */
const around = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(' ', '\n', ',', '.', ':', '=', 'a', 'Z', '9', '"', '/', '-'),
    maxLength: 30,
  }),
);
const separator = fc.constantFrom(' ', '\n', '\t', ' (', ', ', '; ', '\r\n');

describe('redact never lets a planted secret through', () => {
  for (const [label, form] of FORMS) {
    it(`in the form ${label}, with any text around it`, () => {
      fc.assert(
        fc.property(around, separator, secret, separator, around, (before, sep1, x, sep2, after) => {
          const text = `${before}${sep1}${form(x)}${sep2}${after}`;
          const out = redact(text);
          const planted = label.startsWith('https') ? x.replaceAll('/', '%2F') : x;
          assert.ok(
            !out.includes(planted),
            `want ${JSON.stringify(planted)} masked in ${JSON.stringify(out)}`,
          );
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('redacting twice is the same as redacting once (masks are stable)', () => {
    fc.assert(
      fc.property(around, secret, fc.constantFrom(...FORMS), (text, x, [, form]) => {
        const once = redact(`${text} ${form(x)}`);
        assert.equal(redact(once), once);
      }),
      { numRuns: RUNS },
    );
  });
});
