/**
 * The entry of a worker thread (bundled as `dist/worker-thread.js`): it creates one client from the config
 * it was started with, answers the requests posted on its id's channel one at a time, and finally closes the
 * client and ends. A second request while one runs is refused at once (`busy`, `not_sent`); a transport or
 * protocol failure marks the worker failed (calls refused until a new `open`); a JSON-RPC error or an
 * `isError` result changes nothing. The thread ends only after a cleanup that left no server process, or
 * when its owner or the process goes away (the owner then kills what is left: see registry.ts).
 */
import { BroadcastChannel, parentPort, threadId, workerData } from 'node:worker_threads';
import { connect } from '../client/api.js';
import type { CallOptions } from '../client/call-options.js';
import type { Client, CloseReport } from '../client/client.js';
import { type ErrorKind, isMcpError, McpError, type McpErrorData } from '../errors/index.js';
import { endProcessGroup } from '../transport/stdio/index.js';
import { liftLargeText } from './large-text.js';
import { perform } from './operations.js';
import {
  ACCEPT_WINDOW_MS,
  ANNOUNCE,
  DEFAULT_CALL_BUDGET_MS,
  DEFAULT_CLOSE_BUDGET_MS,
  isRequest,
  label,
  type Reply,
  type Request,
  repliesChannel,
  requestsChannel,
  type ThreadData,
  type ToOwner,
} from './protocol.js';
import {
  failureOf,
  serverIdentity,
  type WorkerCleanup,
  type WorkerFailure,
  type WorkerState,
  type WorkerStatus,
} from './status.js';

/** Kinds after which the connection cannot be trusted any more: the worker is failed. */
const FATAL: ReadonlySet<ErrorKind> = new Set([
  'transport',
  'protocol',
  'closed',
  'too_large',
  'spawn',
  'session_expired',
]);
/** Reply channels kept open (one per caller thread that talked to this worker recently). */
const MAX_REPLY_CHANNELS = 64;
/** A running call is acknowledged after this long (a faster answer makes the ack unnecessary). */
const ACK_DELAY_MS = 20;
/** After SIGKILL on a retried close, how long to wait for the kernel to reap. */
const KILL_VERIFY_MS = 2000;

const data = workerData as ThreadData;
const name = label(data.id);
const port = parentPort;
const requests = new BroadcastChannel(requestsChannel(data.id));
/** The owner's private pair (protocol.ts); replies to the requests read there go back on it. */
const ownerPort = data.port;
ownerPort?.unref();
/** The reply "channel" of a request that came on the owner's pair (a channel name is a caller's UUID). */
const OWNER = '\0owner';
const replyChannels = new Map<string, BroadcastChannel>();
const openAbort = new AbortController();

let state: WorkerState = 'opening';
let client: Client | undefined;
let pid: number | undefined;
let lastFailure: WorkerFailure | undefined;
let cleanup: WorkerCleanup | undefined;
/** The running call: its id, where its replies go, when it started, its budget, whether it was acknowledged. */
let current:
  | { rid: string; abort: AbortController; to: string; at: number; budget: number; acked: boolean }
  | undefined;
/** The acknowledgement timer (`ackLater`): one at a time, left to run out rather than made per call. */
let ackTimer: NodeJS.Timeout | undefined;
/** The controller of the running call's signal (`runCall`). */
let callAbort = new AbortController();
let closing: Promise<CloseOutcome> | undefined;
let closeAttempts = 0;
/** Close requests waiting for the cleanup, by request id (a caller that gave up cancels its own). */
const closeWaiters = new Map<string, string>();

type CloseOutcome = { ok: true } | { ok: false; error: McpError };

function status(): WorkerStatus {
  return {
    id: data.id,
    state,
    closing: closing !== undefined || state === 'closed',
    busy: current !== undefined,
    requestId: current?.rid,
    pid,
    threadId,
    protocolVersion: client?.protocolVersion,
    server: serverIdentity(client?.serverInfo),
    lastFailure,
    cleanup,
  };
}

function reply(channel: string, message: Reply): void {
  if (channel === '') return;
  if (channel === OWNER) {
    ownerPort?.postMessage(message);
    return;
  }
  broadcast(channel, message);
}

/** An answer: on the owner's pair, its large texts are transferred as bytes instead of cloned. */
function answer(channel: string, rid: string, value: unknown): void {
  const lifted = channel === OWNER ? liftLargeText(value) : undefined;
  if (lifted === undefined) reply(channel, { t: 'ok', rid, value });
  else ownerPort?.postMessage({ t: 'ok', rid, value: lifted.value, texts: lifted.texts }, lifted.transfer);
}

function broadcast(channel: string, message: Reply): void {
  let out = replyChannels.get(channel);
  if (out === undefined) {
    if (replyChannels.size >= MAX_REPLY_CHANNELS) {
      const [oldest] = replyChannels;
      if (oldest) {
        oldest[1].close();
        replyChannels.delete(oldest[0]);
      }
    }
    out = new BroadcastChannel(repliesChannel(channel));
    out.unref();
    replyChannels.set(channel, out);
  }
  out.postMessage(message);
}

function toData(error: unknown, what: string): McpErrorData {
  if (isMcpError(error)) return error.toJSON();
  return new McpError('transport', `${what} failed in the worker thread`, {
    delivery: 'unknown',
    cause: error,
  }).toJSON();
}

function refuse(request: Request, to: string, kind: ErrorKind, why: string): void {
  const error = new McpError(kind, `${request.op} on ${name}: ${why}`, { delivery: 'not_sent' });
  reply(to, { t: 'err', rid: request.rid, error: error.toJSON() });
}

requests.onmessage = (event: unknown) => {
  const message = (event as { data?: unknown }).data;
  if (isRequest(message)) onRequest(message, message.reply);
};
ownerPort?.on('message', (message: unknown) => {
  if (isRequest(message)) onRequest(message, message.reply === '' ? '' : OWNER);
});

/** One request; `to` is where its replies go (a caller's channel name, `OWNER`, or '' for none). */
function onRequest(message: Request, to: string): void {
  switch (message.op) {
    case 'status':
      reply(to, { t: 'ok', rid: message.rid, value: status() });
      return;
    case 'cancel': {
      const hit = current !== undefined && current.rid === message.target;
      if (hit) current?.abort.abort();
      // A caller that gave up on its close: nobody waits for that answer any more.
      if (message.target !== undefined) closeWaiters.delete(message.target);
      reply(to, { t: 'ok', rid: message.rid, value: hit });
      return;
    }
    case 'close':
      void runClose(message, to);
      return;
    default:
      void runCall(message, to);
      return;
  }
}

async function runCall(request: Request, to: string): Promise<void> {
  const now = Date.now();
  if (now - request.sentAt > ACCEPT_WINDOW_MS) {
    return refuse(
      request,
      to,
      'busy',
      'the worker thread read the request too late to accept it; nothing was sent',
    );
  }
  if (closing !== undefined || state === 'closed')
    return refuse(request, to, 'closed', 'the worker is closing');
  if (state === 'failed' || client === undefined) {
    const why = lastFailure ? `${lastFailure.kind}: ${lastFailure.message}` : 'not connected';
    return refuse(request, to, 'closed', `the worker failed (${why}); open a new one`);
  }
  if (current !== undefined) {
    return refuse(
      request,
      to,
      'busy',
      'another request is running (one at a time, no queue); nothing was sent',
    );
  }
  // One call runs at a time, so its controller is reused until a cancel aborts it (a fresh signal per
  // call cost several µs on every call).
  if (callAbort.signal.aborted) callAbort = new AbortController();
  const abort = callAbort;
  const budget = request.timeoutMs ?? defaultBudget();
  current = { rid: request.rid, abort, to, at: now, budget, acked: false };
  // The ack goes out only if the answer is not there first: a fast call costs one message each way.
  if (ackTimer === undefined) ackTimer = setTimeout(ackLater, ACK_DELAY_MS).unref();
  const left = Math.max(1, budget - (now - request.sentAt));
  const options: CallOptions = { timeoutMs: left, maxTotalTimeoutMs: left, signal: abort.signal };
  if (request.progress) {
    options.onProgress = (progress) =>
      reply(to, { t: 'progress', rid: request.rid, progress: { ...progress } });
  }
  try {
    const value = await perform(client, request, options);
    current = undefined;
    answer(to, request.rid, value);
  } catch (error) {
    current = undefined;
    const errorData = toData(error, request.op);
    if (FATAL.has(errorData.kind) && closing === undefined) {
      state = 'failed';
      lastFailure = failureOf(errorData);
    }
    reply(to, { t: 'err', rid: request.rid, error: errorData });
  }
}

/**
 * Acknowledges the running call once it has run `ACK_DELAY_MS`. One timer serves every call: it is not
 * cleared when a call ends (a fast call then costs no timer at all) and, when it finds a younger call
 * running, waits for the rest of that call's delay.
 */
function ackLater(): void {
  ackTimer = undefined;
  const call = current;
  if (call === undefined || call.acked) return;
  const age = Date.now() - call.at;
  if (age < ACK_DELAY_MS) {
    ackTimer = setTimeout(ackLater, ACK_DELAY_MS - age).unref();
    return;
  }
  call.acked = true;
  const budgetMs = Number.isFinite(call.budget) ? call.budget : null;
  reply(call.to, { t: 'ack', rid: call.rid, budgetMs });
}

function defaultBudget(): number {
  const configured = data.config.timeoutMs;
  return typeof configured === 'number' ? configured : DEFAULT_CALL_BUDGET_MS;
}

async function runClose(request: Request, to: string): Promise<void> {
  const budget = request.timeoutMs ?? DEFAULT_CLOSE_BUDGET_MS;
  reply(to, { t: 'ack', rid: request.rid, budgetMs: Number.isFinite(budget) ? budget : null });
  if (state === 'closed') {
    reply(to, { t: 'ok', rid: request.rid, value: status() });
    return;
  }
  closeWaiters.set(request.rid, to);
  // The attempt already running answers every waiter, this one too.
  if (closing !== undefined) return;
  closing = attemptClose();
  const outcome = await closing;
  if (!outcome.ok) {
    // Let the next close try again; only the waiters of this attempt hear about this failure.
    closing = undefined;
    for (const [rid, channel] of closeWaiters)
      reply(channel, { t: 'err', rid, error: outcome.error.toJSON() });
    closeWaiters.clear();
    return;
  }
  finish();
}

async function attemptClose(): Promise<CloseOutcome> {
  closeAttempts += 1;
  current?.abort.abort();
  try {
    let left: number;
    let report: CloseReport | undefined;
    if (closeAttempts === 1 || pid === undefined) {
      report = client === undefined ? undefined : await client.close();
      left = report?.process?.activeProcesses ?? 0;
    } else {
      // The client's own sequence already ran (closing stdin, SIGTERM, SIGKILL): kill what is left again.
      left = await endProcessGroup(pid, KILL_VERIFY_MS);
    }
    cleanup = {
      activeProcesses: left,
      ended: report?.process?.ended ?? cleanup?.ended ?? 'none',
      lateResponsesDropped: report?.lateResponsesDropped ?? cleanup?.lateResponsesDropped ?? 0,
      attempts: closeAttempts,
    };
    if (left === 0) return { ok: true };
    const error = new McpError(
      'transport',
      `close of ${name}: ${left} server process(es) still alive after cleanup; the id is kept: call close again`,
      { delivery: 'unknown' },
    );
    lastFailure = failureOf(error);
    return { ok: false, error };
  } catch (cause) {
    const error = new McpError('transport', `close of ${name}: cleanup failed; call close again`, {
      delivery: 'unknown',
      cause,
    });
    lastFailure = failureOf(error);
    return { ok: false, error };
  }
}

/** Cleanup succeeded: answer the waiting closes with the final status, announce the end, let the thread end. */
function finish(): void {
  if (state === 'closed') return;
  state = 'closed';
  current = undefined;
  const final = status();
  for (const [rid, channel] of closeWaiters) reply(channel, { t: 'ok', rid, value: final });
  closeWaiters.clear();
  const announce = new BroadcastChannel(ANNOUNCE);
  announce.postMessage({ t: 'gone', id: data.id, final });
  announce.close();
  requests.close();
  ownerPort?.close();
  for (const channel of replyChannels.values()) channel.close();
  replyChannels.clear();
  post({ t: 'cleaned' });
  port?.close?.();
}

function post(message: ToOwner): void {
  port?.postMessage(message);
}

port?.on('message', (message: unknown) => {
  if ((message as { t?: unknown } | null)?.t === 'abort-open') openAbort.abort();
});

try {
  const opened = await connect(data.config, {
    ...(data.openTimeoutMs === undefined ? {} : { timeoutMs: data.openTimeoutMs }),
    signal: openAbort.signal,
  });
  client = opened;
  pid = opened.pid;
  state = 'ready';
  post({ t: 'ready', status: status() });
} catch (error) {
  state = 'failed';
  const errorData = toData(error, 'open');
  lastFailure = failureOf(errorData);
  post({ t: 'open-failed', error: errorData });
  requests.close();
  ownerPort?.close();
  port?.close?.();
}
