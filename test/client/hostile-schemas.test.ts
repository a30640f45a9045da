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
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { before, describe, test } from 'node:test';
import { HOSTILE } from '../fixtures/lib/hostile-schemas.mjs';
import { ROOT } from './helpers.js';

const HOST = path.join(ROOT, 'test/client/hostile-schemas-host.ts');
/** Host CPU one call may take, from the issue: refused or finished within 100 ms. */
const MAX_CPU_MS = 100;
/** Wall time a call may take in the child before it is taken as hung (the machine may be loaded). */
const DEADLINE_MS = 10_000;

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

interface Outcome {
  tool: string;
  outcome: string;
  delivery?: string;
  message?: string;
  text?: string;
  received: boolean;
  cpuMs: number;
  wallMs: number;
}

/** Runs the host on `tools`; a call that does not end within the deadline ends the child there. */
function runHost(tools: string[]): Promise<{ outcomes: Outcome[]; hung?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', HOST, ...tools], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const outcomes: Outcome[] = [];
    let current: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let hung: string | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      clearTimeout(timer);
      if (line.startsWith('start ')) {
        current = line.slice(6);
        timer = setTimeout(() => {
          hung = current;
          child.kill('SIGKILL');
        }, DEADLINE_MS);
      } else outcomes.push(JSON.parse(line) as Outcome);
    });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(hung === undefined ? { outcomes } : { outcomes, hung });
    });
  });
}

describe('validateArguments: a hostile schema never freezes the host (real stdio server, host in a child)', () => {
  const results = new Map<string, Outcome | 'hung'>();

  before(async () => {
    // One child for all shapes; after a hang, a new child goes on with the shapes left.
    let left = Object.keys(EXPECTED);
    while (left.length > 0) {
      const run = await runHost(left);
      for (const outcome of run.outcomes) results.set(outcome.tool, outcome);
      if (run.hung === undefined) break;
      results.set(run.hung, 'hung');
      left = left.filter((tool) => !results.has(tool));
    }
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
