/**
 * The stdio shutdown sequence, in the spec's order (S25/basic/lifecycle, S26/basic/transports/stdio):
 * "the client SHOULD initiate shutdown by closing the input stream to the child process, waiting for the
 * server to exit, or sending SIGTERM if the server does not exit within a reasonable time; SIGKILL if it does
 * not exit within a reasonable time after SIGTERM". Leftover descendants are ended with the server.
 */
import type { ChildProcess } from 'node:child_process';
import { debugNote } from '../../diagnostics/publish.js';
import type { ProcessReport } from '../connection.js';
import type { ServerTree } from './server-tree.js';

/** After SIGKILL we only wait for the kernel to reap, which is quick. */
const KILL_VERIFY_MS = 2000;
const POLL_MS = 25;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface TerminateInput {
  child: ChildProcess;
  tree: ServerTree;
  graceMs: number;
  /** Resolves when the server process has exited. */
  exited: Promise<void>;
  hasExited: () => boolean;
  target: string;
  /** The connection's id in the debug log. */
  connectionId?: string;
  /** `destroy()`: no stdin close, no SIGTERM, no grace: SIGKILL at once, then verify. */
  immediate?: boolean;
}

/** The process report of a connection whose server never started. */
export const NOT_STARTED: Readonly<ProcessReport> = Object.freeze({
  pid: undefined,
  activeProcesses: 0,
  exitCode: null,
  signal: null,
  ended: 'not_started',
  stderrTail: '',
});

export interface TerminateResult {
  ended: ProcessReport['ended'];
  activeProcesses: number;
}

/** Runs the sequence and verifies the outcome. Never throws. */
export async function terminate(input: TerminateInput): Promise<TerminateResult> {
  const { child, tree, graceMs, exited, hasExited, target, connectionId } = input;
  // Take a snapshot before anything can exit: once the server dies its orphans are reparented out of reach.
  tree.remember();
  if (input.immediate === true) return killAndVerify(tree, hasExited() ? 'exited' : 'none', input);
  const exitedBefore = hasExited();
  // 1. Close stdin, 2. wait for the server to exit.
  child.stdin?.end();
  if (!hasExited()) await raceTimeout(exited, graceMs);
  let ended: ProcessReport['ended'] = hasExited() ? 'exited' : 'none';
  if (exitedBefore) ended = 'exited';
  // 3. SIGTERM the group and every known descendant (also when the server left children behind).
  if (tree.countAlive() > 0) {
    const serverAlive = !hasExited();
    debugNote(connectionId, `${target}: SIGTERM process group ${tree.pid}`);
    tree.signal('SIGTERM');
    if (serverAlive) ended = 'sigterm';
    await waitUntil(() => tree.countAlive() === 0, graceMs);
  }
  // 4. SIGKILL whatever is left.
  return killAndVerify(tree, ended, input);
}

/** SIGKILLs whatever of the tree is left and waits for the kernel to reap it. */
async function killAndVerify(
  tree: ServerTree,
  endedSoFar: ProcessReport['ended'],
  { hasExited, target, connectionId }: TerminateInput,
): Promise<TerminateResult> {
  let ended = endedSoFar;
  if (tree.countAlive() > 0) {
    const serverAlive = !hasExited();
    debugNote(connectionId, `${target}: SIGKILL process group ${tree.pid}`);
    tree.signal('SIGKILL');
    if (serverAlive) ended = 'sigkill';
    await waitUntil(() => tree.countAlive() === 0, KILL_VERIFY_MS);
  }
  return { ended, activeProcesses: tree.countAlive() };
}

/** `node x.mjs (pid 7) exited during startup with code 2`: how the server ended, in one clause. */
export function exitSentence(
  target: string,
  pid: number | undefined,
  exit: ExitInfo | undefined,
  answered: boolean,
): string {
  const code = exit?.code ?? null;
  const signal = exit?.signal ?? null;
  const when = answered ? '' : ' during startup';
  const how = signal ? `was killed by ${signal}${when}` : `exited${when} with code ${code}${exitHint(code)}`;
  return `${target} (pid ${pid}) ${how}`;
}

/** What a shell-convention exit status says about a start that failed (the stderr tail says more). */
function exitHint(code: number | null): string {
  if (code === 127) return ' (a program it runs was not found)';
  if (code === 126) return ' (a program it runs is not executable)';
  return '';
}

/** Waits for `promise` or `ms`, whichever comes first, without leaving a timer that keeps the host alive. */
async function raceTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every 25 ms until it holds or `timeoutMs` pass. */
export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await delay(POLL_MS);
}
