/**
 * Reads what scripts/conformance.sh left in results/conformance/ (per revision: the runner's `-o` folders
 * with checks.json and stdout.txt, and `conformance list --requirements` output) and judges it against
 * test/conformance/baseline.yml. Prints a per-revision summary; exits 1 on an unexpected failure, a stale
 * baseline entry, a baseline entry without a reason, or a client that did not exit by itself as expected.
 * CLI: node --import tsx scripts/conformance-summary.ts <out dir> <baseline.yml> <revision>...; `summarize()` is the core.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Not scored by `--requirements`, yet must pass at every revision it runs at (the auth extensions too). */
const GATED_UNSCORED = new Set([
  'json-schema-2020-12-preservation',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
]);
/**
 * Scenarios whose point is that the client refuses and stops (the runner marks them `allowClientError`):
 * a poisoned resource or issuer, a bad `iss`, a server that never stops asking for scope. The driver
 * must exit 1 there, having refused, and 0 everywhere else.
 */
const REFUSALS = new Set([
  'auth/resource-mismatch',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/scope-retry-limit',
]);

/** The exit code a scenario's driver must end with. */
function expectedExit(name: string): number {
  return REFUSALS.has(name) ? 1 : 0;
}
/** The driver's last stdout line (test/conformance/client.ts). */
const EXIT_LINE = /^autos-mcp-conformance-exit (\d+)$/m;

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

interface ScenarioResult {
  name: string;
  checks: Check[];
  /** The driver's exit code, or undefined when it did not exit by itself (killed at the runner's timeout). */
  exitCode: number | undefined;
  /** The driver's last stderr lines (its `conformance client failed: …` line), shown when it exits wrongly. */
  stderrTail: string[];
}

/** The last `max` non-empty lines of `text`, colour codes removed, each cut to 300 characters. */
function tail(text: string, max: number): string[] {
  return text
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .slice(-max)
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));
}

/** Parses the baseline: `client: []`, or `client:` then `  - <scenario> # <reason>` lines; anything else is an error. */
function readBaseline(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  let inClient = false;
  for (const [index, line] of text.split('\n').entries()) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    if (line === 'client: []') continue; // the empty baseline
    if (line === 'client:') {
      inClient = true;
      continue;
    }
    const entry = /^ {2}- ([\w./-]+) +# +(\S.*)$/.exec(line);
    if (!inClient || !entry?.[1] || !entry[2])
      throw new Error(
        `baseline line ${index + 1}: want "  - <scenario> # <reason>", got ${JSON.stringify(line)}`,
      );
    entries.set(entry[1], entry[2]);
  }
  return entries;
}

/** Client scenarios of `conformance list --requirements <rev>`: the scored ones and the unscored ones. */
function readRequirements(text: string): { scored: string[]; unscored: string[] } {
  const scored: string[] = [];
  const unscored: string[] = [];
  let section: 'client' | 'unscored' | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('Client scenarios')) section = 'client';
    else if (line.startsWith('Run and reported, but never scored')) section = 'unscored';
    else if (/^\S/.test(line)) section = undefined;
    const item = /^\s+- (\S+)(?: \[(client|server)\])?$/.exec(line);
    if (!item?.[1]) continue;
    if (section === 'client') scored.push(item[1]);
    if (section === 'unscored' && item[2] === 'client') unscored.push(item[1]);
  }
  return { scored, unscored };
}

/** Every folder holding a checks.json under `dir`, named by scenario (the runner appends a timestamp). */
function readResults(dir: string): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder)) {
      const full = path.join(folder, entry);
      if (!statSync(full).isDirectory()) continue;
      const checksFile = path.join(full, 'checks.json');
      if (!existsSync(checksFile)) {
        walk(full);
        continue;
      }
      const name = path
        .relative(dir, full)
        .split(path.sep)
        .join('/')
        .replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
      const stdout = readFileSync(path.join(full, 'stdout.txt'), 'utf8');
      const exit = EXIT_LINE.exec(stdout)?.[1];
      const stderrFile = path.join(full, 'stderr.txt');
      results.set(name, {
        name,
        checks: JSON.parse(readFileSync(checksFile, 'utf8')) as Check[],
        exitCode: exit === undefined ? undefined : Number(exit),
        stderrTail: existsSync(stderrFile) ? tail(readFileSync(stderrFile, 'utf8'), 5) : [],
      });
    }
  };
  if (existsSync(dir)) walk(dir);
  return results;
}

function count(checks: readonly Check[], status: string): number {
  return checks.filter((c) => c.status === status).length;
}

/** A scenario fails on any FAILURE or WARNING, as the runner's baseline check counts it. */
function failing(result: ScenarioResult): boolean {
  return result.checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING');
}

function describe(result: ScenarioResult): string {
  const bad = result.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  const checks = bad.map(
    (c) => `${c.status} ${c.id}${c.errorMessage ? `: ${c.errorMessage.slice(0, 160)}` : ''}`,
  );
  const exit = result.exitCode === undefined ? 'did not exit by itself' : `exit ${result.exitCode}`;
  // Why the driver exited as it did: without it a CI log shows only "exit 1".
  const stderr =
    result.exitCode === expectedExit(result.name) ? [] : result.stderrTail.map((line) => `stderr: ${line}`);
  const details = [...checks, ...stderr];
  return `${result.name} (${exit})${details.length ? `\n      ${details.join('\n      ')}` : ''}`;
}

/** Judges one revision; returns the problems found. */
function judge(
  outDir: string,
  revision: string,
  baseline: Map<string, string>,
  seen: Set<string>,
  print: (line: string) => void,
): string[] {
  const problems: string[] = [];
  const { scored, unscored } = readRequirements(readFileSync(path.join(outDir, `${revision}.list`), 'utf8'));
  const results = readResults(path.join(outDir, revision));
  const tally = { passed: 0, failed: 0, baselined: 0, success: 0, failure: 0, warning: 0 };
  for (const name of scored) {
    const result = results.get(name);
    if (!result) {
      problems.push(`${revision}: scored scenario ${name} has no results`);
      continue;
    }
    tally.success += count(result.checks, 'SUCCESS');
    tally.failure += count(result.checks, 'FAILURE');
    tally.warning += count(result.checks, 'WARNING');
    if (baseline.has(name)) {
      seen.add(name);
      if (!failing(result)) problems.push(`${revision}: stale baseline entry (now passes): ${name}`);
      else if (result.exitCode === undefined) problems.push(`${revision}: client hung: ${describe(result)}`);
      else tally.baselined++;
    } else if (failing(result) || result.exitCode !== expectedExit(name)) {
      tally.failed++;
      problems.push(`${revision}: unexpected failure: ${describe(result)}`);
    } else tally.passed++;
  }
  print(
    `${revision}: ${scored.length} scored client scenarios: ${tally.passed} passed, ${tally.failed} failed, ` +
      `${tally.baselined} baselined; checks ${tally.success} passed, ${tally.failure} failed, ${tally.warning} warnings`,
  );
  for (const name of unscored) {
    const result = results.get(name);
    const gated = GATED_UNSCORED.has(name);
    if (!result) {
      if (gated) problems.push(`${revision}: ${name} has no results`);
      continue;
    }
    const ok = !failing(result) && result.exitCode === expectedExit(name);
    const checks = `${count(result.checks, 'SUCCESS')} passed, ${count(result.checks, 'FAILURE')} failed`;
    print(`  not scored${gated ? ', gated' : ''}: ${ok ? 'pass' : 'FAIL'} ${name} (checks ${checks})`);
    if (gated && !ok) problems.push(`${revision}: unexpected failure: ${describe(result)}`);
  }
  return problems;
}

/**
 * Judges the results of `revisions` under `outDir` against the baseline file; returns the exit code and the
 * summary lines. Throws on a malformed baseline.
 */
export function summarize(
  outDir: string,
  baselineFile: string,
  revisions: readonly string[],
): { code: number; lines: string[] } {
  const lines: string[] = [];
  const print = (line: string) => lines.push(line);
  const baseline = readBaseline(readFileSync(baselineFile, 'utf8'));
  const seen = new Set<string>();
  const problems = revisions.flatMap((revision) => judge(outDir, revision, baseline, seen, print));
  for (const name of baseline.keys())
    if (!seen.has(name)) problems.push(`baseline entry ${name} is not a scored scenario at any revision run`);
  for (const problem of problems) print(`  ✗ ${problem}`);
  print(problems.length === 0 ? 'conformance: OK' : `conformance: ${problems.length} problem(s)`);
  return { code: problems.length === 0 ? 0 : 1, lines };
}

function main(argv: readonly string[]): number {
  const [outDir, baselineFile, ...revisions] = argv;
  if (!outDir || !baselineFile || revisions.length === 0) {
    console.error('usage: conformance-summary <out dir> <baseline.yml> <revision>...');
    return 2;
  }
  try {
    const { code, lines } = summarize(outDir, baselineFile, revisions);
    for (const line of lines) console.log(line);
    return code;
  } catch (error) {
    console.error(`conformance summary: ${(error as Error).message}`);
    return 2;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
