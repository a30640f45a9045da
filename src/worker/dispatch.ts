/**
 * One request from this thread to a worker, with its whole life in the caller's thread: the request id,
 * the acknowledgement window, the budget timer, the caller's `signal` and `shouldStop` (which never cross),
 * progress, and the settle-once rule. A request that times out or is cancelled after it left is rejected
 * with `delivery: 'unknown'`, a cancel is posted for exactly its request id, and any answer that still
 * comes for that id is dropped: request ids are never reused, so it can never reach a later request.
 */
import { randomUUID } from 'node:crypto';
import type { Progress } from '../client/call-options.js';
import { MAX_TIMER_MS } from '../config/durations.js';
import { type ErrorKind, errorFromData, McpError } from '../errors/index.js';
import { ACK_WINDOW_MS, type Operation, type Request } from './protocol.js';
import { getRouter } from './registry.js';
import type { WorkerStatus } from './status.js';

/** How often `shouldStop` is asked, in ms. */
const SHOULD_STOP_POLL_MS = 20;

/** What the caller's options hold (functions stay in this thread). */
export interface DispatchControl {
  /** The caller's budget for the whole request; absent: the worker's default, told in its ack. */
  readonly budgetMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly shouldStop?: (() => boolean) | undefined;
  readonly onProgress?: ((progress: Progress) => void) | undefined;
  readonly onRequestId?: ((requestId: string) => void) | undefined;
}

/** One request: where, what, and the words its errors use. */
export interface DispatchSpec {
  readonly id: string;
  readonly op: Operation;
  /** Names the operation in messages, e.g. `callTool echo on worker mcpw_…`. */
  readonly what: string;
  /** The request's own fields (name, args, cache, progress, target, timeoutMs). */
  readonly fields?: Partial<Pick<Request, 'name' | 'args' | 'cache' | 'progress' | 'target' | 'timeoutMs'>>;
  /** The message of a budget timeout. */
  readonly timeoutWhy?: (budgetMs: number) => string;
}

/** Sends one request and settles with the worker's answer (`ok`'s value), exactly once. */
export function dispatch(spec: DispatchSpec, control: DispatchControl = {}): Promise<unknown> {
  const router = getRouter();
  const gone = router.gone(spec.id);
  if (gone !== undefined) {
    if (spec.op === 'close' && gone.final !== undefined) return Promise.resolve(gone.final);
    return Promise.reject(
      new McpError('closed', `${spec.what}: the worker is closed; open a new one`, { delivery: 'not_sent' }),
    );
  }
  const { signal, shouldStop } = control;
  if (signal?.aborted) {
    return Promise.reject(new McpError('cancelled', `${spec.what}: cancelled before it was sent`));
  }
  const rid = randomUUID();
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let acked = false;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let poll: NodeJS.Timeout | undefined;

    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      signal?.removeEventListener('abort', onAbort);
      router.unregister(rid);
      settle();
    };
    const fail = (kind: ErrorKind, why: string, delivery: 'unknown' | 'not_sent' = 'unknown') =>
      finish(() => reject(new McpError(kind, `${spec.what}: ${why}`, { delivery })));
    /** The caller stops waiting: tell the worker to cancel exactly this request. */
    const giveUp = (kind: ErrorKind, why: string): void => {
      if (settled) return;
      fail(kind, why);
      postQuietly({ t: 'req', op: 'cancel', rid: randomUUID(), reply: '', sentAt: Date.now(), target: rid });
    };
    const postQuietly = (request: Request): void => {
      try {
        router.post(spec.id, request);
      } catch {
        // best effort: the worker's own deadline ends the request
      }
    };
    const arm = (ms: number, fire: () => void): void => {
      clearTimeout(timer);
      timer = ms <= MAX_TIMER_MS ? setTimeout(fire, Math.max(0, ms)) : undefined;
    };
    const onAbort = (): void =>
      giveUp('cancelled', 'cancelled by the caller after it was sent; it may have run');

    router.register(rid, {
      id: spec.id,
      onReply(reply) {
        if (settled) return;
        switch (reply.t) {
          case 'ack': {
            acked = true;
            const budget = control.budgetMs ?? reply.budgetMs ?? Number.POSITIVE_INFINITY;
            if (!Number.isFinite(budget)) clearTimeout(timer);
            else {
              const why =
                spec.timeoutWhy?.(budget) ??
                `no answer within ${budget} ms; it may have run (a late answer is dropped)`;
              arm(budget - (Date.now() - started), () => giveUp('timeout', why));
            }
            return;
          }
          case 'progress':
            try {
              control.onProgress?.(reply.progress as unknown as Progress);
            } catch {
              // a throwing progress callback must not break the request
            }
            return;
          case 'ok':
            // A clean close: this thread knows at once that the id is gone (the announcement may come later).
            if (spec.op === 'close') router.markGone(spec.id, reply.value as WorkerStatus);
            finish(() => resolve(reply.value));
            return;
          case 'err':
            finish(() => reject(errorFromData(reply.error)));
            return;
        }
      },
      onGone(final: WorkerStatus | undefined) {
        if (spec.op === 'close' && final !== undefined) finish(() => resolve(final));
        // After a clean close the worker refused every request it had not answered: nothing ran.
        else if (final !== undefined) fail('closed', 'the worker was closed', 'not_sent');
        else fail('closed', 'the worker thread ended before it answered; the request may have run');
      },
    });

    // A caller's budget shorter than the window runs from the start (the request may be delivered).
    const early = control.budgetMs;
    if (early !== undefined && early < ACK_WINDOW_MS) {
      const why =
        spec.timeoutWhy?.(early) ??
        `no answer within ${early} ms; it may have run (a late answer is dropped)`;
      arm(early, () => giveUp('timeout', why));
    }
    // Silence for the whole window: no thread owns this id. Checked after one more turn of the event
    // loop, so an acknowledgement that arrived together with the timer is seen first.
    else
      arm(ACK_WINDOW_MS, () =>
        setImmediate(() => {
          if (!acked && !settled) {
            fail(
              'closed',
              'no worker thread answers for this id (closed, or not opened in this process)',
              'not_sent',
            );
          }
        }),
      );
    try {
      control.onRequestId?.(rid);
      router.post(spec.id, {
        t: 'req',
        op: spec.op,
        rid,
        reply: router.callerId,
        sentAt: Date.now(),
        ...spec.fields,
      });
    } catch (cause) {
      finish(() =>
        reject(
          new McpError('config', `${spec.what}: the request could not be posted`, {
            delivery: 'not_sent',
            cause,
          }),
        ),
      );
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (shouldStop !== undefined) {
      poll = setInterval(() => {
        let stop: boolean;
        try {
          stop = shouldStop() === true;
        } catch {
          stop = true;
        }
        if (stop) giveUp('cancelled', 'stopped by shouldStop after it was sent; it may have run');
      }, SHOULD_STOP_POLL_MS);
      poll.unref();
    }
  });
}
