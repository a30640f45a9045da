/**
 * One request from this thread to a worker, as a small state machine in the caller's thread: posted and
 * not yet acknowledged (the acknowledgement window runs), then running (its budget runs), then settled —
 * once, by whichever comes first: the answer, the budget, the caller's `signal` or `shouldStop` (which
 * never cross), or the end of the worker. Settle-once and the deadline are the client's own
 * (`client/pending.ts`). A request that times out or is cancelled after it left is rejected with
 * `delivery: 'unknown'`, a cancel is posted for exactly its request id, and any answer that still comes
 * for that id is dropped: request ids are never reused, so it can never reach a later request.
 */
import { randomUUID } from 'node:crypto';
import type { Progress } from '../client/call-options.js';
import { arm, type Waiting } from '../client/pending.js';
import { type ErrorKind, errorFromData, McpError } from '../errors/index.js';
import { restoreLargeText } from './large-text.js';
import { ACK_WINDOW_MS, type Operation, type Reply, type Request } from './protocol.js';
import { getRouter, type Routed, type Router } from './registry.js';
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
  if (control.signal?.aborted) {
    return Promise.reject(new McpError('cancelled', `${spec.what}: cancelled before it was sent`));
  }
  return new Promise((resolve, reject) => {
    new WorkerRequest(spec, control, router, { resolve, reject }).send();
  });
}

/** How a request ends: the answer's value, or an error. */
type Outcome = { readonly value: unknown } | { readonly error: McpError };

/** Where its outcome goes (the promise `dispatch` returned). */
interface Settle {
  resolve(value: unknown): void;
  reject(error: McpError): void;
}

/** One request's life in the caller's thread; the router hands it the worker's replies. */
class WorkerRequest implements Routed, Waiting {
  readonly rid = randomUUID();
  readonly id: string;
  readonly #spec: DispatchSpec;
  readonly #control: DispatchControl;
  readonly #router: Router;
  readonly #outcome: Settle;
  timer: NodeJS.Timeout | undefined;
  readonly hardDeadline = Number.POSITIVE_INFINITY;
  /** Until the worker acknowledges (or answers), silence for the whole window means no thread owns the id. */
  #phase: 'unacknowledged' | 'running' = 'unacknowledged';
  readonly #started = Date.now();
  #poll: NodeJS.Timeout | undefined;
  readonly #onAbort = (): void =>
    this.#giveUp('cancelled', 'cancelled by the caller after it was sent; it may have run');

  constructor(spec: DispatchSpec, control: DispatchControl, router: Router, outcome: Settle) {
    this.id = spec.id;
    this.#spec = spec;
    this.#control = control;
    this.#router = router;
    this.#outcome = outcome;
  }

  /** Registers, arms the first deadline, posts, then listens to the caller's signal and `shouldStop`. */
  send(): void {
    const [spec, control, router] = [this.#spec, this.#control, this.#router];
    router.register(this.rid, this);
    // A caller's budget shorter than the window runs from the start (the request may be delivered).
    const early = control.budgetMs;
    if (early !== undefined && early < ACK_WINDOW_MS) this.#armBudget(early);
    // Checked after one more turn of the event loop, so an acknowledgement that arrived together with
    // the timer is seen first.
    else arm(this, ACK_WINDOW_MS, () => setImmediate(() => this.#silent()));
    try {
      control.onRequestId?.(this.rid);
      router.post(spec.id, {
        t: 'req',
        op: spec.op,
        rid: this.rid,
        reply: router.callerId,
        sentAt: Date.now(),
        ...spec.fields,
      });
    } catch (cause) {
      const why = `${spec.what}: the request could not be posted`;
      this.#settle({ error: new McpError('config', why, { delivery: 'not_sent', cause }) });
      return;
    }
    this.#watchCaller();
  }

  /** The caller's own ways to stop waiting, which never cross to the worker. */
  #watchCaller(): void {
    const { signal, shouldStop } = this.#control;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (shouldStop === undefined) return;
    this.#poll = setInterval(() => {
      if (askStop(shouldStop))
        this.#giveUp('cancelled', 'stopped by shouldStop after it was sent; it may have run');
    }, SHOULD_STOP_POLL_MS);
    this.#poll.unref();
  }

  /** Called once, by the table, when the request settles. */
  detach(): void {
    clearInterval(this.#poll);
    this.#control.signal?.removeEventListener('abort', this.#onAbort);
  }

  onReply(reply: Reply): void {
    switch (reply.t) {
      case 'ack':
        this.#phase = 'running';
        this.#armBudget(this.#control.budgetMs ?? reply.budgetMs ?? Number.POSITIVE_INFINITY);
        return;
      case 'progress':
        try {
          this.#control.onProgress?.(reply.progress);
        } catch {
          // a throwing progress callback must not break the request
        }
        return;
      case 'ok':
        this.#settle({
          value: reply.texts === undefined ? reply.value : restoreLargeText(reply.value, reply.texts),
        });
        // A clean close: this thread knows at once that the id is gone (the announcement may come later).
        if (this.#spec.op === 'close') this.#router.markGone(this.id, reply.value as WorkerStatus);
        return;
      case 'err':
        this.#settle({ error: errorFromData(reply.error) });
        return;
    }
  }

  onGone(final: WorkerStatus | undefined): void {
    if (this.#spec.op === 'close' && final !== undefined) this.#settle({ value: final });
    // After a clean close the worker refused every request it had not answered: nothing ran.
    else if (final !== undefined) this.#fail('closed', 'the worker was closed', 'not_sent');
    else this.#fail('closed', 'the worker thread ended before it answered; the request may have run');
  }

  /** The whole budget, counted from when the request was posted (`Infinity`: none). */
  #armBudget(budgetMs: number): void {
    const why =
      this.#spec.timeoutWhy?.(budgetMs) ??
      `no answer within ${budgetMs} ms; it may have run (a late answer is dropped)`;
    arm(this, budgetMs - (Date.now() - this.#started), () => this.#giveUp('timeout', why));
  }

  /** The acknowledgement window passed in silence: no thread owns this id (the worker would have refused it). */
  #silent(): void {
    if (this.#phase !== 'unacknowledged') return;
    this.#fail(
      'closed',
      'no worker thread answers for this id (closed, or not opened in this process)',
      'not_sent',
    );
  }

  /** The caller stops waiting: tell the worker to cancel exactly this request. */
  #giveUp(kind: ErrorKind, why: string): void {
    if (!this.#fail(kind, why)) return;
    try {
      this.#router.post(this.id, {
        t: 'req',
        op: 'cancel',
        rid: randomUUID(),
        reply: '',
        sentAt: Date.now(),
        target: this.rid,
      });
    } catch {
      // best effort: the worker's own deadline ends the request
    }
  }

  #fail(kind: ErrorKind, why: string, delivery: 'unknown' | 'not_sent' = 'unknown'): boolean {
    return this.#settle({ error: new McpError(kind, `${this.#spec.what}: ${why}`, { delivery }) });
  }

  /** Settles once: the first outcome wins (the table hands the request out once); false when too late. */
  #settle(outcome: Outcome): boolean {
    if (this.#router.settle(this.rid) === undefined) return false;
    if ('error' in outcome) this.#outcome.reject(outcome.error);
    else this.#outcome.resolve(outcome.value);
    return true;
  }
}

/** Whether `shouldStop` says stop; one that throws stops too. */
function askStop(shouldStop: () => boolean): boolean {
  try {
    return shouldStop() === true;
  } catch {
    return true;
  }
}
