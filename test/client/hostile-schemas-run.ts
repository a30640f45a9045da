/**
 * Runs hostile-schemas-host.ts as a child with a deadline per call, so a check that never ends fails its
 * test instead of hanging the runner. Shared by the hostile-schema tests.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './helpers.js';

const HOST = path.join(ROOT, 'test/client/hostile-schemas-host.ts');
/** Host CPU one call may take, from the issue: refused or finished within 100 ms. */
export const MAX_CPU_MS = 100;
/** Wall time a call may take in the child before it is taken as hung (the machine may be loaded). */
export const DEADLINE_MS = 10_000;

export interface Outcome {
  tool: string;
  outcome: string;
  delivery?: string;
  message?: string;
  text?: string;
  received: boolean;
  cpuMs: number;
  wallMs: number;
}

/** How the child runs: more `node` flags before the host (`--import …`), more environment. */
export interface HostRun {
  nodeArgs?: string[];
  env?: Record<string, string>;
}

/** Runs the host on `tools`; a call that does not end within the deadline ends the child there. */
function runHost(
  tools: string[],
  run: HostRun,
): Promise<{ outcomes: Outcome[]; hung?: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...(run.nodeArgs ?? []), HOST, ...tools], {
      cwd: ROOT,
      env: { ...process.env, ...run.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const outcomes: Outcome[] = [];
    let stderr = '';
    let current: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let hung: string | undefined;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
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
      resolve(hung === undefined ? { outcomes, stderr } : { outcomes, hung, stderr });
    });
  });
}

/**
 * The outcome of each of `tools` ('hung' for one that did not end): one child for all; after a hang, a new
 * child goes on with the tools left. Also the children's stderr, in order.
 */
export async function runTools(
  tools: string[],
  run: HostRun = {},
): Promise<{ results: Map<string, Outcome | 'hung'>; stderr: string }> {
  const results = new Map<string, Outcome | 'hung'>();
  let stderr = '';
  let left = tools;
  while (left.length > 0) {
    const ran = await runHost(left, run);
    stderr += ran.stderr;
    for (const outcome of ran.outcomes) results.set(outcome.tool, outcome);
    if (ran.hung === undefined) break;
    results.set(ran.hung, 'hung');
    left = left.filter((tool) => !results.has(tool));
  }
  return { results, stderr };
}
