/**
 * scripts/conformance-summary.ts on result folders laid out like the runner's `-o` output: it must pass a
 * clean run and catch unexpected failures, stale baseline entries, clients that did not exit by themselves,
 * and baseline entries without a reason. One test runs it as the CLI the conformance script calls.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { summarize as judge } from '../../scripts/conformance-summary.js';
import { ROOT } from '../client/helpers.js';

const REVISION = '2026-07-28';
const LIST = `Required for ${REVISION} (3 scenarios, frozen; run at the ${REVISION} wire):

Server scenarios (test against a server):
  - server-initialize

Client scenarios (test against a client):
  - tools_call
  - auth/metadata-default
  - auth/resource-mismatch

Run and reported, but never scored:
  extension (1):
    - sep-2640-client-skills [client]
  added-after-release (2):
    - server-session-lifecycle [server]
    - json-schema-2020-12-preservation [client]
`;
const BASELINE = 'client:\n  - auth/metadata-default # OAuth not implemented yet\n';

interface Fake {
  status: 'SUCCESS' | 'FAILURE' | 'WARNING';
  /** The driver's exit code; undefined when it printed no exit line (killed at the timeout). */
  exit: number | undefined;
  stderr?: string;
}

const GOOD: Record<string, Fake> = {
  tools_call: { status: 'SUCCESS', exit: 0 },
  'auth/metadata-default': { status: 'FAILURE', exit: 1 },
  'auth/resource-mismatch': { status: 'SUCCESS', exit: 1 },
  'sep-2640-client-skills': { status: 'FAILURE', exit: 1 },
  'json-schema-2020-12-preservation': { status: 'SUCCESS', exit: 0 },
};

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Lays out fake results; returns the folder. */
function layOut(results: Record<string, Fake>, baseline: string): string {
  const out = mkdtempSync(path.join(tmpdir(), 'autos-mcp-conformance-'));
  dirs.push(out);
  writeFileSync(path.join(out, `${REVISION}.list`), LIST);
  writeFileSync(path.join(out, 'baseline.yml'), baseline);
  for (const [name, fake] of Object.entries(results)) {
    const folder = path.join(out, REVISION, `${name}-2026-11-30T05-22-52-933Z`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'checks.json'),
      JSON.stringify([{ id: `${name}-check`, status: fake.status }]),
    );
    const exitLine = fake.exit === undefined ? '' : `\nautos-mcp-conformance-exit ${fake.exit}\n`;
    writeFileSync(path.join(folder, 'stdout.txt'), `some output${exitLine}`);
    if (fake.stderr !== undefined) writeFileSync(path.join(folder, 'stderr.txt'), fake.stderr);
  }
  return out;
}

function summarize(results: Record<string, Fake>, baseline = BASELINE) {
  const out = layOut(results, baseline);
  try {
    const { code, lines } = judge(out, path.join(out, 'baseline.yml'), [REVISION]);
    return { status: code, output: lines.join('\n') };
  } catch (error) {
    return { status: 2, output: (error as Error).message };
  }
}

test('the CLI prints the summary and exits 1 on a problem, 2 on a bad baseline', () => {
  const cli = (out: string) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/conformance-summary.ts', out, path.join(out, 'baseline.yml'), REVISION],
      { cwd: ROOT, encoding: 'utf8' },
    );
  const failing = cli(layOut({ ...GOOD, tools_call: { status: 'FAILURE', exit: 0 } }, BASELINE));
  assert.equal(failing.status, 1, failing.stderr);
  assert.match(failing.stdout, /unexpected failure: tools_call/);
  const bad = cli(layOut(GOOD, 'client:\n  - tools_call\n'));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /baseline line 2/);
});

test('a run with only baselined failures passes and counts scenarios and checks', () => {
  const { status, output } = summarize(GOOD);
  assert.equal(status, 0, output);
  assert.match(
    output,
    /3 scored client scenarios: 2 passed, 0 failed, 1 baselined; checks 2 passed, 1 failed/,
  );
  assert.match(output, /conformance: OK/);
});

test('a scored failure outside the baseline fails the run, and so does a warning', () => {
  for (const status of ['FAILURE', 'WARNING'] as const) {
    const run = summarize({ ...GOOD, tools_call: { status, exit: 0 } });
    assert.equal(run.status, 1, run.output);
    assert.match(run.output, /unexpected failure: tools_call/);
  }
});

test('a baseline entry that now passes fails the run as stale', () => {
  const run = summarize({ ...GOOD, 'auth/metadata-default': { status: 'SUCCESS', exit: 0 } });
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /stale baseline entry \(now passes\): auth\/metadata-default/);
});

test('a passing scenario whose client did not exit 0 by itself fails the run', () => {
  for (const exit of [1, undefined]) {
    const run = summarize({ ...GOOD, tools_call: { status: 'SUCCESS', exit } });
    assert.equal(run.status, 1, run.output);
    assert.match(run.output, /unexpected failure: tools_call \((exit 1|did not exit by itself)\)/);
  }
});

test("a driver that exits wrongly has its stderr's last lines shown, colour codes removed", () => {
  const stderr = `early line\n${'x\n'.repeat(4)}\x1b[31mconformance client failed (protocol): ${'y'.repeat(400)}\x1b[0m\n\n`;
  const run = summarize({ ...GOOD, tools_call: { status: 'SUCCESS', exit: 1, stderr } });
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /unexpected failure: tools_call \(exit 1\)\n {6}stderr: x\n/);
  assert.match(run.output, /stderr: conformance client failed \(protocol\): y{262}…\n/);
  assert.doesNotMatch(run.output, /early line|\x1b/);
  const expected = summarize({ ...GOOD, tools_call: { status: 'FAILURE', exit: 0, stderr } });
  assert.doesNotMatch(expected.output, /stderr:/, 'an expected exit shows no stderr');
});

test('the gated unscored scenario must pass; extensions are only reported', () => {
  const run = summarize({ ...GOOD, 'json-schema-2020-12-preservation': { status: 'FAILURE', exit: 0 } });
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /unexpected failure: json-schema-2020-12-preservation/);
  assert.match(run.output, /not scored: FAIL sep-2640-client-skills/);
  assert.doesNotMatch(run.output, /unexpected failure: sep-2640-client-skills/);
});

test('a baseline entry without a reason, or naming no scored scenario, is refused', () => {
  const bare = summarize(GOOD, 'client:\n  - auth/metadata-default\n');
  assert.equal(bare.status, 2, bare.output);
  assert.match(bare.output, /baseline line 2: want " {2}- <scenario> # <reason>"/);
  const unknown = summarize(GOOD, `${BASELINE}  - auth/no-such-scenario # typo\n`);
  assert.equal(unknown.status, 1, unknown.output);
  assert.match(unknown.output, /baseline entry auth\/no-such-scenario is not a scored scenario/);
});

test('a refusal scenario passes only when the driver refused (exit 1); the empty baseline parses', () => {
  const refused = summarize(
    { ...GOOD, 'auth/metadata-default': { status: 'SUCCESS', exit: 0 } },
    'client: []\n',
  );
  assert.equal(refused.status, 0, refused.output);
  const carriedOn = summarize(
    {
      ...GOOD,
      'auth/metadata-default': { status: 'SUCCESS', exit: 0 },
      'auth/resource-mismatch': { status: 'SUCCESS', exit: 0 },
    },
    'client: []\n',
  );
  assert.equal(carriedOn.status, 1);
  assert.match(carriedOn.output, /unexpected failure: auth\/resource-mismatch \(exit 0\)/);
});
