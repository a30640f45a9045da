/** Shared by the worker tests: fixture configs, a caller thread that uses ids only, and /proc counts. */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { errorFromData } from '../../src/errors/index.js';
import { status } from '../../src/worker/index.js';

export const STATE_SERVER = fileURLToPath(new URL('./fixtures/state-server.mjs', import.meta.url));
export const IGNORE_SIGTERM = fileURLToPath(new URL('../fixtures/ignore-sigterm.mjs', import.meta.url));

/** A stdio config running `script` under this node. */
export function nodeServer(script: string, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [script], ...extra };
}

/** Starts a TypeScript module as a worker thread (registering tsx there first, as src/worker/entry.ts does). */
export function tsWorker(path: URL): Worker {
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const code = `import(${tsx}).then((tsx) => { tsx.register(); return import(${JSON.stringify(path.href)}); });`;
  return new Worker(code, { eval: true });
}

/** A thread that calls `autos-mcp/worker` by id (test/worker/fixtures/caller-thread.ts). */
export class CallerThread {
  readonly #worker = tsWorker(new URL('./fixtures/caller-thread.ts', import.meta.url));

  /** Runs one operation there; resolves with its value, or rejects with the rebuilt error. */
  run(job: Record<string, unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#worker.once('message', (answer: { ok: boolean; value?: unknown; error?: unknown }) => {
        if (answer.ok) resolve(answer.value);
        else reject(typeof answer.error === 'string' ? new Error(answer.error) : errorFromData(answer.error));
      });
      this.#worker.postMessage(job);
    });
  }

  get threadId(): number {
    return this.#worker.threadId;
  }

  async stop(): Promise<void> {
    await this.#worker.terminate();
  }
}

/** Threads of this process (/proc/self/task). */
export function threadCount(): number {
  return readdirSync('/proc/self/task').length;
}

/** Polls `condition` every 20 ms until it holds or `ms` pass; whether it held. */
export async function eventually(condition: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * Resolves with the id of the request the worker runs, once it runs one (the one `want()` names, when
 * given): asked of the worker itself instead of sleeping for a guess.
 */
export async function runningRequest(id: string, want?: () => string): Promise<string> {
  for (;;) {
    const { busy, requestId } = await status(id);
    if (busy && requestId !== undefined && (want === undefined || requestId === want())) return requestId;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resolves once the worker runs no request (a cancel reached it). */
export async function idle(id: string): Promise<void> {
  while ((await status(id)).busy) await new Promise((resolve) => setTimeout(resolve, 5));
}
