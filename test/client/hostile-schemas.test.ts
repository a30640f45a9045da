/**
 * No hostile schema freezes the host through `validateArguments`: a real stdio server advertises tools
 * whose `inputSchema` used to hang the event loop for good (a `$ref` graph of 2^41 evaluations, quantifier
 * bounds of 10 digits or with leading zeros, 40 alternations in a row, a counted repetition on 1 MB, `items`
 * that refer back twice) or for seconds (a quadratic pattern run 200 times, `uniqueItems` on 16,384
 * objects, 1,000 `minLength` on 1 MiB). Each call is refused (`invalid_tool`, nothing sent) or finished,
 * in at most 100 ms of the host's CPU. The host runs as a child (hostile-schemas-host.ts) with a deadline
 * per call, so a check that never ends fails its test instead of hanging the runner.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { HOSTILE } from '../fixtures/lib/hostile-schemas.mjs';
import { DEADLINE_MS, MAX_CPU_MS, type Outcome, runTools } from './hostile-schemas-run.js';

/** What each shape must come to: refused (its check cannot be bounded) or sent (the pattern is left to the server). */
const EXPECTED: Record<string, { outcome: 'invalid_tool' | 'sent'; message?: RegExp }> = {
  refGraph: { outcome: 'invalid_tool', message: /takes more than 10000 evaluations to check/ },
  tenDigits: { outcome: 'sent' },
  tenDigitKeys: {
    outcome: 'invalid_tool',
    message: /patternProperties expression that could take exponential/,
  },
  leadingZeros: { outcome: 'sent' },
  alternations: { outcome: 'sent' },
  fixedCount: { outcome: 'sent' },
  itemsFanOut: { outcome: 'invalid_tool', message: /takes more than 10000 evaluations to check/ },
  manyRuns: { outcome: 'sent' },
  uniqueObjects: { outcome: 'sent' },
  lengthChecks: { outcome: 'sent' },
};

describe('validateArguments: a hostile schema never freezes the host (real stdio server, host in a child)', () => {
  const results = new Map<string, Outcome | 'hung'>();

  before(async () => {
    const run = await runTools(Object.keys(EXPECTED));
    process.stderr.write(run.stderr);
    for (const [tool, outcome] of run.results) results.set(tool, outcome);
  });

  for (const [tool, expected] of Object.entries(EXPECTED))
    test(`${tool} (${HOSTILE[tool]?.[2]}): ${expected.outcome === 'sent' ? 'finished, the costly check left to the server' : 'refused, nothing sent'}, within ${MAX_CPU_MS} ms`, (t) => {
      const result = results.get(tool);
      assert.notEqual(result, 'hung', `want an answer, got none within ${DEADLINE_MS} ms (the host hung)`);
      assert.ok(result !== undefined && result !== 'hung', 'want an outcome, got none (the host died)');
      t.diagnostic(`host CPU ${result.cpuMs} ms, wall ${result.wallMs.toFixed(1)} ms`);
      assert.equal(result.outcome, expected.outcome, result.message);
      if (expected.outcome === 'invalid_tool') {
        assert.equal(result.delivery, 'not_sent');
        assert.match(result.message ?? '', expected.message ?? /./);
        assert.equal(result.received, false, 'want nothing sent, got the call received by the server');
      } else {
        assert.equal(result.text, 'ran');
        assert.equal(result.received, true, 'want the call sent, got none received by the server');
      }
      assert.ok(
        result.cpuMs <= MAX_CPU_MS,
        `want at most ${MAX_CPU_MS} ms of host CPU, got ${result.cpuMs} ms`,
      );
    });
});
