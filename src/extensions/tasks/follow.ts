/**
 * Following a task to its end (SEP-2663): `tasks/get` at the server's `pollIntervalMs` (clamped, see
 * `poll-delay.ts`), input requests answered through `tasks/update` by the caller's handlers, `Mcp-Name`
 * set to the task id, `tasks/cancel` sent (without waiting) when the caller aborts, the deadline passes or
 * the server's answers cannot be followed. Never polls for ever: the call's deadline and `MAX_POLLS` bound it.
 */
import { debugLog } from '../../diagnostics/publish.js';
import { type ErrorKind, isMcpError, McpError, RpcError } from '../../errors/index.js';
import type { ClaimedResult, ExtensionPort } from '../extension.js';
import { MAX_POLLS, pollDelay } from './poll-delay.js';
import { isTerminal, quote, readTask, type TaskState, type TaskStatus } from './task-shape.js';

/** What `onTask` is told: the task's id, and each status it is seen in (once per change). */
export interface TaskUpdate {
  readonly taskId: string;
  readonly status: TaskStatus;
  /** The server's `statusMessage`: terminal-safe, one line, at most 1,000 characters. Data, not instructions. */
  readonly statusMessage?: string;
}

/** Most input requests one `tasks/update` answers. */
export const MAX_TASK_INPUTS = 32;

/** Bounds a test may lower. */
export interface FollowLimits {
  maxPolls: number;
}

/** Follows the task `claimed.result` created, to the request's final result. */
export async function followTask(
  claimed: ClaimedResult,
  port: ExtensionPort,
  limits: FollowLimits = { maxPolls: MAX_POLLS },
): Promise<Record<string, unknown>> {
  const on = `${claimed.operation} on ${port.target}`;
  const first = readTask(claimed.result);
  if (typeof first === 'string')
    throw new McpError('protocol', `${on}: the server created a task, but ${first}`, { delivery: 'unknown' });
  const follower = new Follower(claimed, port, first, on);
  return follower.run(limits);
}

class Follower {
  readonly #claimed: ClaimedResult;
  readonly #port: ExtensionPort;
  readonly #on: string;
  readonly #taskId: string;
  readonly #answered = new Set<string>();
  #task: TaskState;
  #told: TaskUpdate | undefined;
  #updates = 0;

  constructor(claimed: ClaimedResult, port: ExtensionPort, first: TaskState, on: string) {
    this.#claimed = claimed;
    this.#port = port;
    this.#task = first;
    this.#taskId = first.taskId;
    this.#on = `${on}: task ${quote(first.taskId)}`;
  }

  async run(limits: FollowLimits): Promise<Record<string, unknown>> {
    this.#tell();
    for (let polls = 0; ; polls++) {
      const task = this.#task;
      if (isTerminal(task.status)) return this.#end(task);
      if (task.status === 'input_required' && task.inputRequests !== undefined)
        await this.#answer(task.inputRequests);
      if (polls >= limits.maxPolls)
        this.#giveUp('protocol', `still ${task.status} after ${limits.maxPolls} polls`);
      await this.#wait(pollDelay(task.pollIntervalMs));
      const answer = await this.#send('tasks/get', { taskId: this.#taskId });
      const next = readTask(answer, this.#taskId);
      if (typeof next === 'string') this.#giveUp('protocol', `tasks/get answered: ${next}`);
      this.#task = next;
      this.#tell();
    }
  }

  /** A terminal task: its result, or the error it ended with. */
  #end(task: TaskState): Record<string, unknown> {
    if (task.status === 'completed') {
      const result = task.result ?? {};
      const type = result['resultType'];
      if (type !== undefined && type !== 'complete')
        throw new McpError(
          'protocol',
          `${this.#on}: the completed task's result has resultType ${quote(type)}`,
          {
            delivery: 'unknown',
          },
        );
      return { ...result };
    }
    if (task.status === 'failed') {
      const error = task.error ?? {};
      const { code, message, data } = error;
      if (typeof code !== 'number' || !Number.isInteger(code) || typeof message !== 'string')
        throw new McpError('protocol', `${this.#on}: the failed task's error is not a JSON-RPC error`, {
          delivery: 'unknown',
        });
      // The task ended as the request would have: with this JSON-RPC error (SEP-2663 Task Execution Errors).
      throw new RpcError(
        `${this.#claimed.operation} (task ${quote(this.#taskId)})`,
        this.#port.target,
        code,
        message,
        data,
      );
    }
    const why = task.statusMessage === undefined ? '' : `: ${task.statusMessage}`;
    throw new McpError('task_cancelled', `${this.#on}: the server cancelled the task${why}`, {
      delivery: 'delivered',
      target: this.#port.target,
    });
  }

  /** Answers the input requests not answered yet with the caller's handlers, in one `tasks/update`. */
  async #answer(requests: Readonly<Record<string, unknown>>): Promise<void> {
    const fresh = Object.entries(requests).filter(([key]) => !this.#answered.has(key));
    // The keys of a task are unique over its lifetime: one already answered is the same request (SEP-2663).
    if (fresh.length === 0) return;
    if (fresh.length > MAX_TASK_INPUTS)
      this.#giveUp(
        'protocol',
        `the task asks for ${fresh.length} inputs at once (at most ${MAX_TASK_INPUTS})`,
      );
    if (++this.#updates > this.#port.maxInputRounds)
      this.#giveUp('protocol', `still asking for input after ${this.#port.maxInputRounds} rounds`);
    const inputResponses: Record<string, unknown> = {};
    for (const [key, request] of fresh) {
      const method = (request as { method?: unknown } | null)?.method;
      const raw = (request as { params?: unknown }).params;
      const params = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : undefined;
      if (typeof method !== 'string') this.#giveUp('protocol', `input request ${quote(key)} has no method`);
      const answer = this.#port.canAnswer(method, params)
        ? this.#port.answerInput(method, params)
        : undefined;
      if (answer === undefined)
        this.#giveUp(
          'task_cancelled',
          `the task asks for ${quote(method)}, which no handler given to connect() answers; the client cancelled the task`,
        );
      try {
        inputResponses[key] = await answer;
      } catch (error) {
        this.#giveUp(
          'task_cancelled',
          `the handler for ${quote(method)} threw; the client cancelled the task`,
          error,
        );
      }
    }
    await this.#send('tasks/update', { taskId: this.#taskId, inputResponses });
    for (const [key] of fresh) this.#answered.add(key);
  }

  /** Waits `ms` (never past the deadline: then the call fails `timeout` and the task is cancelled). */
  async #wait(ms: number): Promise<void> {
    const left = this.#port.deadline - this.#port.clock.now();
    try {
      if (left > 0) await this.#port.clock.sleep(Math.min(ms, left), this.#port.signal);
    } catch (error) {
      this.#stopped(error);
    }
    if (this.#port.clock.now() >= this.#port.deadline) this.#timedOut();
  }

  /** One request about this task, within what is left of the deadline; a failure ends the follow. */
  async #send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const left = this.#port.deadline - this.#port.clock.now();
    if (left <= 0) this.#timedOut();
    try {
      return await this.#port.request(method, params, {
        timeoutMs: Math.max(1, Math.min(this.#port.requestTimeoutMs, left)),
        routeName: this.#taskId,
        signal: this.#port.signal,
      });
    } catch (error) {
      if (this.#port.signal.aborted) this.#stopped(error);
      if (this.#port.clock.now() >= this.#port.deadline) this.#timedOut();
      const kind: ErrorKind = isMcpError(error) ? error.kind : 'protocol';
      const rpc = isMcpError(error) && error.code !== undefined ? { code: error.code, data: error.data } : {};
      const text = error instanceof Error ? error.message : String(error);
      if (kind !== 'closed') this.#cancel();
      throw new McpError(kind, `${this.#on}: ${text}`, {
        delivery: 'unknown',
        cause: error,
        target: this.#port.target,
        ...rpc,
      });
    }
  }

  #timedOut(): never {
    this.#giveUp(
      'timeout',
      `not finished by the call's deadline (last status ${this.#task.status}); tasks/cancel sent`,
    );
  }

  /** The caller aborted (`cancelled`) or the client closed (`closed`): cancel the task, say so. */
  #stopped(error: unknown): never {
    const callerSignal = (this.#claimed.callOptions as { signal?: unknown }).signal;
    const byCaller = callerSignal instanceof AbortSignal && callerSignal.aborted;
    if (byCaller) {
      this.#cancel();
      throw new McpError(
        'cancelled',
        `${this.#on}: cancelled while the task was ${this.#task.status}; tasks/cancel sent`,
        {
          delivery: 'unknown',
          cause: error,
          target: this.#port.target,
        },
      );
    }
    throw new McpError('closed', `${this.#on}: the client closed while the task was ${this.#task.status}`, {
      delivery: 'unknown',
      cause: error,
      target: this.#port.target,
    });
  }

  /** Cancels the task (sent, not awaited: giving up returns at once) and throws `kind`. */
  #giveUp(kind: ErrorKind, why: string, cause?: unknown): never {
    this.#cancel();
    throw new McpError(kind, `${this.#on}: ${why}`, {
      delivery: 'unknown',
      target: this.#port.target,
      ...(cause === undefined ? {} : { cause }),
    });
  }

  /** `tasks/cancel`, best effort: cooperative on the server's side, and its answer changes nothing here. */
  #cancel(): void {
    this.#port
      .request(
        'tasks/cancel',
        { taskId: this.#taskId },
        {
          timeoutMs: Math.min(this.#port.requestTimeoutMs, CANCEL_TIMEOUT_MS),
          routeName: this.#taskId,
        },
      )
      .catch((error: unknown) => debugLog('%s: tasks/cancel failed: %s', this.#on, String(error)));
  }

  /** `onTask`, once per status (or status message) seen; a throw is logged, never the call's failure. */
  #tell(): void {
    const task = this.#task;
    if (this.#told?.status === task.status && this.#told.statusMessage === task.statusMessage) return;
    const update: TaskUpdate = {
      taskId: task.taskId,
      status: task.status,
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    };
    this.#told = update;
    const onTask = (this.#claimed.callOptions as { onTask?: unknown }).onTask;
    if (typeof onTask !== 'function') return;
    try {
      onTask(update);
    } catch (error) {
      debugLog('%s: onTask threw: %s', this.#on, String(error));
    }
  }
}

/** How long a `tasks/cancel` may wait for its answer, in ms. */
const CANCEL_TIMEOUT_MS = 5_000;
