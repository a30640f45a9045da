/**
 * The messages between callers and worker threads, and the names of the channels they travel on. Everything
 * here is plain data (structured clone): errors travel as `McpErrorData` and are rebuilt by `errorFromData`.
 *
 * Channels (`BroadcastChannel`s, which reach every thread of this process and nothing outside it):
 * - `requests(id)`: callers post `Request`s; only the worker thread of that id listens.
 * - `replies(callerId)`: the worker posts `Reply`s to the one caller (a module instance of one thread).
 * - `ANNOUNCE`: a worker (or its owner, when the thread died) announces that an id is gone.
 * The caller that opened a worker (its owner: the module instance that holds the `Worker`) also has a
 * private `MessagePort` pair with its thread (`ThreadData.port`): its requests and their replies go there,
 * point to point, which is cheaper per call than a broadcast; every other caller uses the channels above.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Progress } from '../client/call-options.js';
import type { ServerConfig } from '../config/server-config.js';
import type { McpErrorData } from '../errors/index.js';
import type { LiftedText } from './large-text.js';
import type { WorkerStatus } from './status.js';

const PREFIX = 'autos-mcp/worker/v1/';

/** The channel a worker thread listens on for its id. */
export function requestsChannel(id: string): string {
  return `${PREFIX}requests/${id}`;
}

/** The channel one caller (one module instance in one thread) reads its replies on. */
export function repliesChannel(callerId: string): string {
  return `${PREFIX}replies/${callerId}`;
}

/** Where the end of an id is announced to every caller. */
export const ANNOUNCE = `${PREFIX}announce`;

/** Worker ids: opaque to callers; the format is only checked to refuse what is surely not one. */
export const ID_PATTERN = /^mcpw_[0-9a-f-]{36}$/;

/** An id shortened for messages (the whole id reads like a secret to the redactor, which masks it). */
export function label(id: string): string {
  return `worker ${id.slice(0, 13)}…`;
}

/**
 * A caller waits this long for the worker to acknowledge (or answer) a request; silence means no thread
 * owns the id (closed, or never opened in this process).
 */
export const ACK_WINDOW_MS = 1000;
/**
 * A worker refuses (`busy`, `not_sent`) a request older than this when it reads it, so that a caller whose
 * acknowledgement window ran out can say `not_sent` truthfully: the window is twice this.
 */
export const ACCEPT_WINDOW_MS = 500;
/** Default budget of a call when neither the options nor the config give a `timeoutMs`. */
export const DEFAULT_CALL_BUDGET_MS = 30_000;
/** Default budget of `close`. */
export const DEFAULT_CLOSE_BUDGET_MS = 5_000;

/** What a request asks for. */
export type Operation =
  | 'listTools'
  | 'callTool'
  | 'listResources'
  | 'listResourceTemplates'
  | 'readResource'
  | 'listPrompts'
  | 'getPrompt'
  | 'listSkills'
  | 'readSkill'
  | 'status'
  | 'cancel'
  | 'close';

/** A caller's request to a worker. */
export interface Request {
  readonly t: 'req';
  readonly op: Operation;
  /** The request id (opaque, unique per request): replies carry it, `cancel` names it. */
  readonly rid: string;
  /** The caller's reply channel name; '' when no reply is wanted (a cancel sent after a timeout). */
  readonly reply: string;
  /** `Date.now()` when it was posted (same clock in every thread). */
  readonly sentAt: number;
  /** The caller's budget; absent: the worker's default (config `timeoutMs`, else 30 s). */
  readonly timeoutMs?: number;
  /** callTool, getPrompt: the tool or prompt name. */
  readonly name?: string;
  /** callTool, getPrompt: the checked arguments. */
  readonly args?: Record<string, unknown>;
  /** readResource: the resource uri; readSkill: the skill's SKILL.md uri or name. */
  readonly uri?: string;
  /** readSkill: the folder to write to and the bounds. */
  readonly skill?: { readonly dir: string; readonly maxFiles?: number; readonly maxBytes?: number };
  /** listTools: answer from the cached list while fresh. */
  readonly cache?: boolean;
  /** callTool: the caller wants progress updates. */
  readonly progress?: boolean;
  /** cancel: the request id to cancel. */
  readonly target?: string;
}

/** A worker's reply to one request. */
export type Reply =
  /** The request was accepted and runs now; `budgetMs` is its whole budget (`null`: no deadline). */
  | { readonly t: 'ack'; readonly rid: string; readonly budgetMs: number | null }
  | { readonly t: 'progress'; readonly rid: string; readonly progress: Progress }
  /** `texts`: the value's large texts, as transferred bytes (owner's pair only; `large-text.ts`). */
  | { readonly t: 'ok'; readonly rid: string; readonly value: unknown; readonly texts?: LiftedText[] }
  | { readonly t: 'err'; readonly rid: string; readonly error: McpErrorData };

/** An announcement on `ANNOUNCE`. */
export interface Announcement {
  readonly t: 'gone';
  readonly id: string;
  /** The final status when the worker closed cleanly; absent when its thread died. */
  readonly final?: WorkerStatus;
}

/** Messages from a worker thread to the thread that opened it (its `parentPort`). */
export type ToOwner =
  | { readonly t: 'ready'; readonly status: WorkerStatus }
  | { readonly t: 'open-failed'; readonly error: McpErrorData }
  /** Cleanup finished with no process left; the thread ends next. */
  | { readonly t: 'cleaned' };

/** What the thread is started with (`workerData`). */
export interface ThreadData {
  readonly id: string;
  /** The checked config: a plain-data copy (`plain.ts`). */
  readonly config: ServerConfig;
  /** `open`'s own deadline for connecting, when given. */
  readonly openTimeoutMs?: number;
  /** The thread's end of the owner's private pair: requests in, their replies out (transferred). */
  readonly port?: MessagePort;
}

/** True when `value` looks like a `Request` (the fields the worker dispatches on). */
export function isRequest(value: unknown): value is Request {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v['t'] === 'req' && typeof v['rid'] === 'string' && typeof v['reply'] === 'string';
}

/** True when `value` looks like a `Reply`. */
export function isReply(value: unknown): value is Reply {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['rid'] === 'string' &&
    (v['t'] === 'ack' || v['t'] === 'progress' || v['t'] === 'ok' || v['t'] === 'err')
  );
}
