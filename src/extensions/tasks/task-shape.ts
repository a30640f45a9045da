/**
 * The task of the tasks extension (`io.modelcontextprotocol/tasks`, 2026 shape, SEP-2663): a
 * `CreateTaskResult` (`resultType: "task"`) and the `DetailedTask` of `tasks/get`, read as untrusted server
 * data. Pure. Unknown statuses are invalid (the client MUST treat a value it does not recognise as invalid);
 * the id is bounded; `statusMessage` is kept terminal-safe and short.
 */
import { terminalText } from '../../internal/terminal-text.js';

export const TASK_STATUSES = Object.freeze([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
] as const);

/** A task's status. `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Longest task id accepted, in characters (ids are opaque; a longer one is a hostile server's). */
export const MAX_TASK_ID_CHARS = 1024;
/** Longest `statusMessage` kept, in characters (terminal-safe, one line). */
export const MAX_STATUS_MESSAGE_CHARS = 1000;

/** One read of a task: what the follower acts on. */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** The server's suggested interval, as sent (clamped where it is used). */
  readonly pollIntervalMs?: number;
  /** `input_required`: the outstanding requests, by key. */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  /** `completed`: the request's final result. */
  readonly result?: Readonly<Record<string, unknown>>;
  /** `failed`: the JSON-RPC error. */
  readonly error?: Readonly<Record<string, unknown>>;
}

const STATUS_SET: ReadonlySet<string> = new Set(TASK_STATUSES);

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** Why `id` cannot be a task id, or undefined. */
export function taskIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string' || id === '') return 'the task has no taskId string';
  if (id.length > MAX_TASK_ID_CHARS) return `the taskId is longer than ${MAX_TASK_ID_CHARS} characters`;
  return undefined;
}

/**
 * Reads a task from a result; `expectedId` (a `tasks/get` answer) must match. Returns the task, or a
 * sentence saying what is wrong with it (never quoting more than a bounded, terminal-safe piece).
 */
export function readTask(value: unknown, expectedId?: string): TaskState | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the task is not an object';
  const raw = value as Record<string, unknown>;
  const idProblem = taskIdProblem(raw['taskId']);
  if (idProblem !== undefined) return idProblem;
  const taskId = raw['taskId'] as string;
  if (expectedId !== undefined && taskId !== expectedId) return 'the answer is about another taskId';
  const status = raw['status'];
  if (typeof status !== 'string' || !STATUS_SET.has(status))
    return `the task has an unknown status ${quote(status)}`;
  const task: {
    -readonly [K in keyof TaskState]: TaskState[K];
  } = { taskId, status: status as TaskStatus };
  if (typeof raw['statusMessage'] === 'string')
    task.statusMessage = terminalText(raw['statusMessage'], { max: MAX_STATUS_MESSAGE_CHARS, oneLine: true });
  const interval = raw['pollIntervalMs'];
  if (typeof interval === 'number' && Number.isFinite(interval)) task.pollIntervalMs = interval;
  switch (task.status) {
    case 'input_required': {
      const requests = raw['inputRequests'];
      if (requests !== undefined) {
        if (!isObject(requests)) return 'inputRequests is not an object';
        task.inputRequests = requests;
      }
      break;
    }
    case 'completed':
      if (!isObject(raw['result'])) return 'a completed task has no result object';
      task.result = raw['result'];
      break;
    case 'failed':
      if (!isObject(raw['error'])) return 'a failed task has no error object';
      task.error = raw['error'];
      break;
  }
  return task;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A server value in a message: JSON, one line, terminal-safe, at most 60 characters. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = typeof value;
  }
  return terminalText(text.slice(0, 200), { max: 64, oneLine: true });
}
