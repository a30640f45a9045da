/**
 * The work meter of `validateArguments` reads an accessor that @cfworker/json-schema 4.1.6 happens to read
 * on every schema object it evaluates (src/client/schema-budget.ts); the peer range lets a user install a
 * later 4.x that does not. The meter is tested once when the validator loads: a build it cannot meter
 * checks only schemas whose work is bounded before it runs (no reference, small enough for the
 * arguments), leaves the others to the server, and says so once in the debug log. The hostile shapes run
 * in a child host (with a deadline per call) where `@cfworker/json-schema` resolves to such a build
 * (test/fixtures/lib/unmetered-validator.mjs): none may hang it or take over 100 ms of its CPU.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import * as validator from '@cfworker/json-schema';
import { meterWorks } from '../../src/client/arguments.js';
import { HOSTILE } from '../fixtures/lib/hostile-schemas.mjs';
import * as unmeteredBuild from '../fixtures/lib/unmetered-validator.mjs';
import { FIXTURES } from './helpers.js';
import { DEADLINE_MS, MAX_CPU_MS, type Outcome, runTools } from './hostile-schemas-run.js';

const REGISTER = path.join(FIXTURES, 'lib/unmetered-validator-register.mjs');
/** The line the debug log has, once, when the meter cannot be used. */
const UNMETERED_NOTE = /@cfworker\/json-schema cannot be metered/g;

describe('validateArguments: the work meter is tested on the validator installed', () => {
  test('the supported build (4.1.6) passes the self-check', () => {
    assert.equal(meterWorks(validator), true);
  });

  test("a build that never reads the meter's accessors (it copies the schema) fails it", () => {
    assert.equal(meterWorks(unmeteredBuild), false);
  });
});

/** Each shape on an unmetered build: what a referenced or expanding schema must come to is "sent". */
const EXPECTED: Record<string, { outcome: 'invalid_tool' | 'invalid_arguments' | 'sent'; message?: RegExp }> =
  {
    refGraph: { outcome: 'sent' },
    itemsFanOut: { outcome: 'sent' },
    // No reference, but its size times the values of the arguments is past the budget: 555 ms unchecked.
    // (Metered, it is refused once the budget of 16 evaluations per value is spent; not a shape of
    // hostile-schemas.test.ts, as that budget on 20,000 values is itself more than 100 ms.)
    wideAllOf: { outcome: 'sent' },
    // Without a reference the check still runs, bounded before it starts.
    plain: { outcome: 'invalid_arguments', message: /at \/count: expected a value \(required\)/ },
    tenDigitKeys: {
      outcome: 'invalid_tool',
      message: /patternProperties expression that could take exponential/,
    },
    tenDigits: { outcome: 'sent' },
    manyRuns: { outcome: 'sent' },
    uniqueObjects: { outcome: 'sent' },
    lengthChecks: { outcome: 'sent' },
  };

describe('validateArguments on a build the meter cannot read (real stdio server, host in a child)', () => {
  const results = new Map<string, Outcome | 'hung'>();
  let stderr = '';

  before(async () => {
    const run = await runTools(Object.keys(EXPECTED), {
      nodeArgs: ['--import', REGISTER],
      env: { AUTOS_MCP_DEBUG: '1' },
    });
    stderr = run.stderr;
    for (const [tool, outcome] of run.results) results.set(tool, outcome);
  });

  test('the debug log says once that schemas with references are left to the server', () => {
    const notes = stderr.match(UNMETERED_NOTE) ?? [];
    assert.equal(notes.length, 1, `want one note, got ${notes.length} in:\n${stderr.slice(0, 2000)}`);
    assert.match(stderr, /with a \$ref, \$dynamicRef or \$recursiveRef.*left to the server/);
  });

  for (const [tool, expected] of Object.entries(EXPECTED))
    test(`${tool} (${HOSTILE[tool]?.[2] ?? 'a plain schema, no argument'}): ${expected.outcome === 'sent' ? 'sent, its check left to the server' : `refused (${expected.outcome}), nothing sent`}, within ${MAX_CPU_MS} ms`, (t) => {
      const result = results.get(tool);
      assert.notEqual(result, 'hung', `want an answer, got none within ${DEADLINE_MS} ms (the host hung)`);
      assert.ok(result !== undefined && result !== 'hung', 'want an outcome, got none (the host died)');
      t.diagnostic(`host CPU ${result.cpuMs} ms, wall ${result.wallMs.toFixed(1)} ms`);
      assert.equal(result.outcome, expected.outcome, result.message);
      if (expected.outcome === 'sent') {
        assert.equal(result.text, 'ran');
        assert.equal(result.received, true, 'want the call sent, got none received by the server');
      } else {
        assert.equal(result.delivery, 'not_sent');
        assert.match(result.message ?? '', expected.message ?? /./);
        assert.equal(result.received, false, 'want nothing sent, got the call received by the server');
      }
      assert.ok(
        result.cpuMs <= MAX_CPU_MS,
        `want at most ${MAX_CPU_MS} ms of host CPU, got ${result.cpuMs} ms`,
      );
    });
});
