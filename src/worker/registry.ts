/**
 * How an opaque worker id reaches its thread from anywhere in the process, and who answers for the thread.
 *
 * Routing: there is no table to consult. Every worker thread listens on a `BroadcastChannel` named after
 * its id (`protocol.ts`); `BroadcastChannel`s of one name are shared by every thread of the process — the
 * main thread, any worker thread, and the `node:vm` contexts running in them (they call this module's
 * functions, so they use their thread's router) — and by nothing outside it. A caller posts its request
 * there with the name of its own reply channel (one per module instance, i.e. per thread and copy of the
 * library), and the worker answers on it. An id no thread listens for gets no answer: the caller gives up
 * after `ACK_WINDOW_MS` with `closed`/`not_sent` (the worker refuses requests it reads after half that time,
 * so the silence really means "not sent"). The router of the caller that opened a worker also holds a
 * private `MessagePort` to its thread (`attach`): its requests and their replies take that pair instead,
 * point to point (cheaper per call than a broadcast). Ends are announced on one `ANNOUNCE` channel, so every router
 * that exists learns at once that an id is gone (with its final status, which makes `close` idempotent).
 * Every channel here is `unref`'d: a router keeps nothing alive; a request in flight is kept alive by
 * its own timer.
 *
 * Ownership: the thread that called `open` holds the `Worker` object. When that thread dies without a
 * cleanup (crash, `terminate`), the owner SIGKILLs the server's process group, and a `process.on('exit')`
 * hook (added on the first `open`, never at import) does the same for every worker still open when the
 * owning thread exits — so no server outlives its worker, its thread, or the process.
 */
import { randomUUID } from 'node:crypto';
import { BroadcastChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { type Waiting, WaitingTable } from '../client/pending.js';
import { killProcessGroup } from '../transport/stdio/index.js';
import {
  ANNOUNCE,
  type Announcement,
  isReply,
  type Reply,
  type Request,
  repliesChannel,
  requestsChannel,
} from './protocol.js';
import type { WorkerStatus } from './status.js';

/** One request waiting for its replies (settled once, through `settle`). */
export interface Routed extends Waiting {
  /** The worker it went to. */
  readonly id: string;
  onReply(reply: Reply): void;
  /** The worker ended; `final` when it closed cleanly. */
  onGone(final: WorkerStatus | undefined): void;
}

/** Most ids remembered as gone, and most request channels kept open, per router. */
const MAX_GONE = 10_000;
const MAX_OUTBOUND = 256;

/** The caller side of one thread: its reply channel, the requests in flight, what it knows has ended. */
export class Router {
  readonly callerId = randomUUID();
  readonly #pending = new WaitingTable<string, Routed>();
  readonly #outbound = new Map<string, BroadcastChannel>();
  readonly #direct = new Map<string, MessagePort>();
  readonly #gone = new Map<string, WorkerStatus | undefined>();
  readonly #replies: BroadcastChannel;
  readonly #announce: BroadcastChannel;

  constructor() {
    this.#replies = new BroadcastChannel(repliesChannel(this.callerId));
    this.#replies.unref();
    this.#replies.onmessage = (event: unknown) => {
      const message = (event as { data?: unknown }).data;
      if (isReply(message)) this.#pending.get(message.rid)?.onReply(message);
    };
    this.#announce = new BroadcastChannel(ANNOUNCE);
    this.#announce.unref();
    this.#announce.onmessage = (event: unknown) => {
      const message = (event as { data?: Partial<Announcement> }).data;
      if (message?.t === 'gone' && typeof message.id === 'string') this.markGone(message.id, message.final);
    };
  }

  /**
   * The private pair of a worker this caller opened: its requests go there, and the replies that come
   * back on it are routed like the broadcast ones. Dropped when the worker is known to be gone.
   */
  attach(id: string, port: MessagePort): void {
    port.unref();
    port.on('message', (message: unknown) => {
      if (isReply(message)) this.#pending.get(message.rid)?.onReply(message);
    });
    this.#direct.set(id, port);
  }

  /** Posts `request` to the worker of `id`. May throw a `DataCloneError`. */
  post(id: string, request: Request): void {
    const direct = this.#direct.get(id);
    if (direct !== undefined) {
      direct.postMessage(request);
      return;
    }
    let channel = this.#outbound.get(id);
    if (channel === undefined) {
      if (this.#outbound.size >= MAX_OUTBOUND) {
        const [oldest] = this.#outbound;
        if (oldest) this.#dropOutbound(oldest[0]);
      }
      channel = new BroadcastChannel(requestsChannel(id));
      channel.unref();
      this.#outbound.set(id, channel);
    }
    channel.postMessage(request);
  }

  register(rid: string, request: Routed): void {
    this.#pending.add(rid, request);
  }

  /** Removes the request `rid`; undefined when it had already settled (so each request settles once). */
  settle(rid: string): Routed | undefined {
    return this.#pending.settle(rid);
  }

  /** Whether `id` is known to have ended, and its final status when it closed cleanly. */
  gone(id: string): { final: WorkerStatus | undefined } | undefined {
    return this.#gone.has(id) ? { final: this.#gone.get(id) } : undefined;
  }

  /** Records that `id` ended and fails the requests still waiting on it. */
  markGone(id: string, final: WorkerStatus | undefined): void {
    if (this.#gone.size >= MAX_GONE) {
      const [oldest] = this.#gone.keys();
      if (oldest !== undefined) this.#gone.delete(oldest);
    }
    this.#gone.set(id, final ?? this.#gone.get(id));
    this.#dropOutbound(id);
    for (const rid of this.#pending.ids()) {
      const request = this.#pending.get(rid);
      if (request?.id === id) request.onGone(final);
    }
  }

  #dropOutbound(id: string): void {
    this.#outbound.get(id)?.close();
    this.#outbound.delete(id);
    this.#direct.get(id)?.close();
    this.#direct.delete(id);
  }
}

let router: Router | undefined;

/** This thread's router, created on first use (importing starts nothing). */
export function getRouter(): Router {
  router ??= new Router();
  return router;
}

/** A worker this thread opened. */
interface Owned {
  readonly worker: Worker;
  readonly pid: number | undefined;
  cleaned: boolean;
}

/** After a clean close the thread ends by itself; this long after, it is ended for it. */
const EXIT_AFTER_CLEANUP_MS = 2000;
const owned = new Map<string, Owned>();
let exitHooked = false;

/** Takes ownership of a ready worker: watch its thread, kill its server if the thread dies uncleaned. */
export function own(id: string, worker: Worker, pid: number | undefined, port?: MessagePort): void {
  if (!exitHooked) {
    process.on('exit', killOwned);
    exitHooked = true;
  }
  const entry: Owned = { worker, pid, cleaned: false };
  owned.set(id, entry);
  if (port !== undefined) getRouter().attach(id, port);
  worker.on('message', (message: unknown) => {
    if ((message as { t?: unknown } | null)?.t !== 'cleaned') return;
    entry.cleaned = true;
    setTimeout(() => void worker.terminate(), EXIT_AFTER_CLEANUP_MS).unref();
  });
  // An uncaught exception in the thread: its 'exit' follows, and is handled there.
  worker.on('error', () => {});
  worker.once('exit', () => {
    owned.delete(id);
    if (entry.cleaned) return;
    if (entry.pid !== undefined) killProcessGroup(entry.pid);
    getRouter().markGone(id, undefined);
    const announce = new BroadcastChannel(ANNOUNCE);
    announce.postMessage({ t: 'gone', id } satisfies Announcement);
    announce.close();
  });
}

function killOwned(): void {
  for (const entry of owned.values())
    if (!entry.cleaned && entry.pid !== undefined) killProcessGroup(entry.pid);
}

/** @internal For tests: the `Worker` of an id this thread opened (to simulate a thread that dies). */
export function ownedWorker(id: string): Worker | undefined {
  return owned.get(id)?.worker;
}
