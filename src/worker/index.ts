/**
 * `autos-mcp/worker`: one stateful MCP connection in a dedicated thread, reused across isolated executions
 * (`node:vm` contexts, other worker threads, one run after another) by an opaque string id. Callers hold
 * only the id; the client lives in its own thread and is never handed out. Importing starts nothing; there
 * is no pool, no reconnect and no replay, and nothing survives the process. Read docs/worker.md.
 */
import { randomUUID } from 'node:crypto';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Progress } from '../client/call-options.js';
import type {
  GetPromptResult,
  PromptList,
  ReadResourceResult,
  ResourceList,
  ResourceTemplateList,
} from '../client/resource-types.js';
import type { Tool, ToolCallOutcome } from '../client/types.js';
import { durationMs } from '../config/durations.js';
import { checkConfigData, type ServerConfig, snapshotPlainData } from '../config/index.js';
import { errorFromData, isMcpError, McpError } from '../errors/index.js';
import type { ReadSkillResult, SkillList } from '../extensions/skills/index.js';
import { type DispatchControl, dispatch } from './dispatch.js';
import { threadEntry } from './entry.js';
import { DEFAULT_CLOSE_BUDGET_MS, ID_PATTERN, label, type ThreadData, type ToOwner } from './protocol.js';
import { own } from './registry.js';
import type { WorkerStatus } from './status.js';

export { nullGaps } from './plain.js';
export type { WorkerCleanup, WorkerFailure, WorkerServer, WorkerState, WorkerStatus } from './status.js';

/** Options of `open`. Functions stay in this thread. */
export interface OpenOptions {
  /** Deadline for the server to be ready (spawn + handshake), in ms. Default: the config's `timeoutMs`. */
  timeoutMs?: number;
  /** Aborting cancels the open and cleans up. */
  signal?: AbortSignal;
}

/** Options of `listTools` and `callTool`. `signal`, `shouldStop` and the callbacks stay in the caller's thread. */
export interface WorkerCallOptions {
  /** Budget of the whole request, in ms. Default: the config's `timeoutMs`, else 30 s. `Infinity`: none. */
  timeoutMs?: number;
  /** Aborting cancels the request (`cancelled`; `delivery: 'unknown'` once it was sent). */
  signal?: AbortSignal;
  /** Asked every 20 ms while the request runs; `true` cancels it like `signal`. */
  shouldStop?: () => boolean;
  /** Called for each progress update of this call. */
  onProgress?: (progress: Progress) => void;
  /** Called with the request's id before it is sent (for `cancel` from another context). */
  onRequestId?: (requestId: string) => void;
}

/** Options of `listTools`. */
export interface WorkerListToolsOptions extends WorkerCallOptions {
  /** Answer from the cached list while it is fresh per the server's `ttlMs` (2026). Default false. */
  cache?: boolean;
}

/** Options of `close`. */
export interface WorkerCloseOptions {
  /** How long to wait for the cleanup, in ms. Default 5000. A cleanup still running is not abandoned. */
  timeoutMs?: number;
}

/**
 * Starts a worker thread that connects to the server of `config` (plain JSON data; checked here, before any
 * thread starts) and resolves with its id once the client is ready. On failure the thread ends, nothing is
 * left behind, and the error is the client's (`spawn`, `timeout`, …).
 */
export async function open(config: ServerConfig, options: OpenOptions = {}): Promise<string> {
  // Judged as `connect()` judges it (config's field table), then posted as the plain copy that was checked.
  const data = checkConfigData(config);
  const openTimeoutMs = options.timeoutMs;
  if (openTimeoutMs !== undefined) durationMs(openTimeoutMs, 'timeoutMs', 0, { positive: true });
  const { signal } = options;
  if (signal?.aborted) throw new McpError('cancelled', 'open: cancelled before the worker started');
  const id = `mcpw_${randomUUID()}`;
  // The owner's private pair with the thread (protocol.ts): this end stays here, the other goes with it.
  const pair = new MessageChannel();
  const threadData: ThreadData = {
    id,
    config: data,
    ...(openTimeoutMs === undefined ? {} : { openTimeoutMs }),
    port: pair.port2,
  };
  const start = threadEntry();
  let worker: Worker;
  try {
    worker = new Worker(start.entry, {
      eval: start.eval,
      workerData: threadData,
      transferList: [pair.port2],
    });
  } catch (error) {
    pair.port1.close();
    throw error;
  }
  return new Promise<string>((resolve, reject) => {
    const onAbort = () => worker.postMessage({ t: 'abort-open' });
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: ToOwner) => {
      if (message.t === 'ready') {
        done();
        own(id, worker, message.status.pid, pair.port1);
        // An open worker does not keep the process alive; at exit its server is killed (registry.ts).
        worker.unref();
        resolve(id);
      } else if (message.t === 'open-failed') {
        done();
        pair.port1.close();
        worker.unref();
        reject(errorFromData(message.error));
      }
    };
    const onError = (cause: unknown) => {
      done();
      pair.port1.close();
      reject(
        isMcpError(cause)
          ? cause
          : new McpError('spawn', 'open: the worker thread failed to start', { delivery: 'not_sent', cause }),
      );
    };
    const onExit = (code: number) => {
      done();
      pair.port1.close();
      reject(new McpError('spawn', `open: the worker thread ended (code ${code}) before it was ready`));
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Lists every tool of the worker's server (all pages). */
export async function listTools(id: string, options: WorkerListToolsOptions = {}): Promise<Tool[]> {
  const what = `listTools on ${label(checkId(id, 'listTools'))}`;
  const fields = { ...budgetField(options.timeoutMs), ...(options.cache ? { cache: true } : {}) };
  return (await dispatch({ id, op: 'listTools', what, fields }, control(options))) as Tool[];
}

/**
 * Calls a tool in the worker and returns the raw MCP result (read `structuredContent` first when it is
 * there); `isError: true` is a result, not an exception. `args` must be plain JSON data (see `nullGaps`).
 */
export async function callTool(
  id: string,
  name: string,
  args: Record<string, unknown> = {},
  options: WorkerCallOptions = {},
): Promise<ToolCallOutcome> {
  checkId(id, 'callTool');
  if (typeof name !== 'string' || name === '') throw new McpError('config', 'callTool needs a tool name');
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new McpError('config', `callTool ${name}: arguments must be an object`);
  }
  const checked = snapshotPlainData(args, 'arguments');
  if (!checked.ok) throw new McpError('config', `callTool ${name}: ${checked.reason}`);
  const fields = {
    name,
    args: checked.value as Record<string, unknown>,
    ...budgetField(options.timeoutMs),
    ...(options.onProgress ? { progress: true } : {}),
  };
  const what = `callTool ${name} on ${label(id)}`;
  return (await dispatch({ id, op: 'callTool', what, fields }, control(options))) as ToolCallOutcome;
}

/** Every resource of the worker's server (all pages, bounded; malformed entries in `excluded`). */
export async function listResources(id: string, options: WorkerCallOptions = {}): Promise<ResourceList> {
  return (await simple(id, 'listResources', options)) as ResourceList;
}

/** Every resource template of the worker's server (all pages, bounded). */
export async function listResourceTemplates(
  id: string,
  options: WorkerCallOptions = {},
): Promise<ResourceTemplateList> {
  return (await simple(id, 'listResourceTemplates', options)) as ResourceTemplateList;
}

/** Every prompt of the worker's server (all pages, bounded). */
export async function listPrompts(id: string, options: WorkerCallOptions = {}): Promise<PromptList> {
  return (await simple(id, 'listPrompts', options)) as PromptList;
}

/** Reads one resource in the worker (`resources/read`). */
export async function readResource(
  id: string,
  uri: string,
  options: WorkerCallOptions = {},
): Promise<ReadResourceResult> {
  checkId(id, 'readResource');
  if (typeof uri !== 'string' || uri === '')
    throw new McpError('config', 'readResource needs a resource uri');
  const what = `readResource on ${label(id)}`;
  const fields = { uri, ...budgetField(options.timeoutMs) };
  return (await dispatch({ id, op: 'readResource', what, fields }, control(options))) as ReadResourceResult;
}

/** Gets one prompt in the worker (`prompts/get`); every argument value must be a string. */
export async function getPrompt(
  id: string,
  name: string,
  args: Record<string, string> = {},
  options: WorkerCallOptions = {},
): Promise<GetPromptResult> {
  checkId(id, 'getPrompt');
  if (typeof name !== 'string' || name === '') throw new McpError('config', 'getPrompt needs a prompt name');
  const checked = snapshotPlainData(args, 'arguments');
  if (!checked.ok) throw new McpError('config', `getPrompt ${name}: ${checked.reason}`);
  const fields = { name, args: checked.value as Record<string, unknown>, ...budgetField(options.timeoutMs) };
  const what = `getPrompt ${name} on ${label(id)}`;
  return (await dispatch({ id, op: 'getPrompt', what, fields }, control(options))) as GetPromptResult;
}

/** Every skill of the worker's server (`skills/list`, all pages, bounded; malformed entries in `excluded`). */
export async function listSkills(id: string, options: WorkerCallOptions = {}): Promise<SkillList> {
  return (await simple(id, 'listSkills', options)) as SkillList;
}

/**
 * Writes one skill's files to `skill.dir` in the worker, each verified against its manifest (see
 * `Client.readSkill`, docs/skills.md); `timeoutMs` bounds the whole read.
 */
export async function readSkill(
  id: string,
  uriOrName: string,
  skill: { dir: string; maxFiles?: number; maxBytes?: number },
  options: WorkerCallOptions = {},
): Promise<ReadSkillResult> {
  checkId(id, 'readSkill');
  if (typeof uriOrName !== 'string' || uriOrName === '')
    throw new McpError('config', 'readSkill needs a skill uri or name');
  const checked = snapshotPlainData(skill, 'skill');
  if (!checked.ok) throw new McpError('config', `readSkill ${uriOrName}: ${checked.reason}`);
  const fields = { uri: uriOrName, skill: checked.value, ...budgetField(options.timeoutMs) };
  const what = `readSkill ${uriOrName.slice(0, 200)} on ${label(id)}`;
  return (await dispatch({ id, op: 'readSkill', what, fields }, control(options))) as ReadSkillResult;
}

function simple(
  id: string,
  op: 'listResources' | 'listResourceTemplates' | 'listPrompts' | 'listSkills',
  options: WorkerCallOptions,
): Promise<unknown> {
  const what = `${op} on ${label(checkId(id, op))}`;
  return dispatch({ id, op, what, fields: budgetField(options.timeoutMs) }, control(options));
}

/** The worker's status: small plain data, never the config, arguments or results. */
export async function status(id: string): Promise<WorkerStatus> {
  const what = `status of ${label(checkId(id, 'status'))}`;
  return (await dispatch({ id, op: 'status', what })) as WorkerStatus;
}

/**
 * Cancels the request `requestId` if, and only if, it is the one running in the worker now; resolves
 * with whether it was. A stale request id never cancels a later request. There is no cancel without an id.
 */
export async function cancel(id: string, requestId: string): Promise<boolean> {
  checkId(id, 'cancel');
  if (typeof requestId !== 'string' || requestId === '') {
    throw new McpError('config', 'cancel needs the request id (from status() or onRequestId)');
  }
  const what = `cancel on ${label(id)}`;
  return (await dispatch({ id, op: 'cancel', what, fields: { target: requestId } })) === true;
}

/**
 * Closes the worker: the client and the server's whole process tree, verified (`cleanup.activeProcesses`
 * is 0). Resolves with the final status; the id is invalid afterwards (closing again gives the same final
 * status). When the cleanup fails or outlasts `timeoutMs`, rejects and the id stays valid and owned:
 * call `close` again.
 */
export async function close(id: string, options: WorkerCloseOptions = {}): Promise<WorkerStatus> {
  checkId(id, 'close');
  const budget = durationMs(options.timeoutMs, 'timeoutMs', DEFAULT_CLOSE_BUDGET_MS, { positive: true });
  const final = (await dispatch(
    {
      id,
      op: 'close',
      what: `close of ${label(id)}`,
      fields: { timeoutMs: budget },
      timeoutWhy: (ms) =>
        `the cleanup did not finish within ${ms} ms; it goes on, and the id is kept: call close again`,
    },
    { budgetMs: budget },
  )) as WorkerStatus;
  if (final.state !== 'closed' || final.cleanup?.activeProcesses !== 0) {
    throw new McpError('protocol', `close of ${label(id)}: the worker reported an unverified cleanup`, {
      delivery: 'unknown',
    });
  }
  return final;
}

function checkId(id: unknown, operation: string): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new McpError('config', `${operation}: not a worker id (use the string open() resolved with)`);
  }
  return id;
}

function budgetField(timeoutMs: number | undefined): { timeoutMs?: number } {
  if (timeoutMs === undefined) return {};
  return { timeoutMs: durationMs(timeoutMs, 'timeoutMs', 0, { positive: true }) };
}

function control(options: WorkerCallOptions): DispatchControl {
  return {
    budgetMs: options.timeoutMs,
    signal: options.signal,
    shouldStop: options.shouldStop,
    onProgress: options.onProgress,
    onRequestId: options.onRequestId,
  };
}
