/**
 * The 2026-07-28 `subscriptions/listen` request that carries `notifications/tools/list_changed`
 * (S26/basic/patterns/subscriptions): a long-lived request with a `notifications` filter; its first message
 * is `notifications/subscriptions/acknowledged` with the subset the server honours (compared with what was
 * asked); every notification on it carries `_meta["io.modelcontextprotocol/subscriptionId"]` (the listen's
 * id, correlated here: S26/basic/transports/stdio MUST); a result for that id is a graceful end; an abrupt
 * one is reopened after a back-off, within a budget of attempts that bring nothing. Closing cancels it the
 * way the transport cancels any 2026 request (stdio: `notifications/cancelled`; HTTP: the POST is ended).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_TIMER_MS } from '../config/durations.js';
import { debugNote } from '../diagnostics/publish.js';
import { RpcError } from '../errors/index.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import { META_SUBSCRIPTION_ID } from '../protocol/versions.js';
import { Reconnect, STABLE_STREAM_MS } from '../transport/http/backoff.js';
import type { Engine } from './engine.js';
import type { ToolChanges } from './tool-changes.js';
import type { Wire } from './wire.js';

/** The first wait before reopening a broken subscription; each further one without progress doubles it. */
export const SUBSCRIPTION_RETRY_MS = 250;
/** Reopenings in a row that bring nothing (no acknowledgement, or a stream shorter than 10 s) before giving up. */
export const SUBSCRIPTION_BUDGET = 4;

/** What the subscription tells its owner. Each must not throw. */
export interface SubscriptionSink {
  /** The server said its tools changed, on the live subscription. */
  changed(): void;
  /** Acknowledged again after a break: a change may have been missed meanwhile. */
  resumed(): void;
  /** No more change events will come; `held`: it had been acknowledged (a change may have been missed). */
  ended(why: string, held: boolean): void;
}

export interface SubscriptionOptions {
  target: string;
  /** How long the server has to acknowledge before the attempt counts as broken. */
  ackTimeoutMs: number;
  /** Sends `subscriptions/listen` (no deadline); resolves with its final result. */
  send(
    params: Record<string, unknown>,
    options: { signal: AbortSignal; onId: (id: number) => void },
  ): Promise<Record<string, unknown>>;
  /** True once the connection is gone: there is nothing to reopen on. */
  connectionClosed(): boolean;
  log(text: string): void;
}

type Outcome = 'graceful' | 'refused' | 'not_honoured' | 'broken' | 'stopped';

/** One client's subscription to tool list changes; it runs until `stop()` or until it ends by itself. */
export class Subscription {
  readonly #options: SubscriptionOptions;
  readonly #sink: SubscriptionSink;
  readonly #stop = new AbortController();
  /** The id of the listen in flight, and whether the server acknowledged it with tool changes. */
  #id: number | undefined;
  #acknowledged = false;
  #attempt: { controller: AbortController; notHonoured: boolean; timer: NodeJS.Timeout } | undefined;
  #everAcknowledged = false;

  constructor(options: SubscriptionOptions, sink: SubscriptionSink) {
    this.#options = options;
    this.#sink = sink;
    void this.#run();
  }

  /** Ends the subscription (cancelling the listen in flight); idempotent. */
  stop(): void {
    this.#stop.abort();
  }

  /**
   * A notification that may belong to this subscription. True when it did (it is then handled); a
   * notification for another id, or before the acknowledgement (the server MUST NOT send one), is dropped.
   */
  receive(message: JsonRpcNotification): boolean {
    const meta = message.params?.['_meta'];
    const id =
      typeof meta === 'object' && meta !== null
        ? (meta as Record<string, unknown>)[META_SUBSCRIPTION_ID]
        : undefined;
    if (this.#id === undefined || id !== this.#id) return false;
    if (message.method === 'notifications/subscriptions/acknowledged') {
      this.#onAcknowledged(message.params?.['notifications']);
      return true;
    }
    if (message.method === 'notifications/tools/list_changed' && this.#acknowledged) this.#sink.changed();
    return true;
  }

  #onAcknowledged(honoured: unknown): void {
    const attempt = this.#attempt;
    if (this.#acknowledged || attempt === undefined) return; // a second acknowledgement means nothing
    const filter =
      typeof honoured === 'object' && honoured !== null ? (honoured as Record<string, unknown>) : {};
    clearTimeout(attempt.timer);
    // The server lists the subset it honours (S26/basic/patterns/subscriptions: the client SHOULD compare).
    if (filter['toolsListChanged'] !== true) {
      attempt.notHonoured = true;
      attempt.controller.abort();
      return;
    }
    const extra = Object.keys(filter).filter((key) => key !== 'toolsListChanged');
    if (extra.length > 0)
      this.#options.log(
        `${this.#options.target} acknowledged filters it was not asked for (${extra.length}); ignored`,
      );
    this.#acknowledged = true;
    if (this.#everAcknowledged) this.#sink.resumed();
    this.#everAcknowledged = true;
  }

  async #run(): Promise<void> {
    const reconnect = new Reconnect({ budget: SUBSCRIPTION_BUDGET });
    const stop = this.#stop.signal;
    while (!stop.aborted) {
      const openedAt = performance.now();
      const outcome = await this.#once();
      const acknowledged = this.#acknowledged;
      this.#acknowledged = false;
      if (outcome === 'stopped' || stop.aborted) return;
      if (outcome !== 'broken') return this.#sink.ended(ENDED[outcome], this.#everAcknowledged);
      // Progress is a subscription that held (acknowledged, open 10 s): one that breaks at once is not.
      reconnect.ended(acknowledged && performance.now() - openedAt >= STABLE_STREAM_MS);
      const delay = reconnect.next(SUBSCRIPTION_RETRY_MS);
      if (delay === undefined)
        return this.#sink.ended(
          `it broke ${SUBSCRIPTION_BUDGET + 1} times in a row without holding`,
          this.#everAcknowledged,
        );
      this.#options.log(`subscriptions/listen on ${this.#options.target} broke: reopening in ${delay} ms`);
      try {
        await sleep(delay, undefined, { signal: stop });
      } catch {
        return;
      }
    }
  }

  /** One `subscriptions/listen`, from sending to its end. */
  async #once(): Promise<Outcome> {
    const controller = new AbortController();
    // Node fires a delay over 2^31-1 ms (a client with `timeoutMs: Infinity`) at once: capped instead.
    const timer = setTimeout(() => controller.abort(), Math.min(this.#options.ackTimeoutMs, MAX_TIMER_MS));
    const attempt = { controller, notHonoured: false, timer };
    this.#attempt = attempt;
    const signal = AbortSignal.any([this.#stop.signal, controller.signal]);
    try {
      const params = { notifications: { toolsListChanged: true } };
      await this.#options.send(params, { signal, onId: (id) => (this.#id = id) });
      return 'graceful';
    } catch (error) {
      if (this.#stop.signal.aborted || this.#options.connectionClosed()) return 'stopped';
      if (attempt.notHonoured) return 'not_honoured';
      // An error answer is the server's word (no such method, a limit): asking again would get the same.
      if (error instanceof RpcError) return 'refused';
      return 'broken';
    } finally {
      clearTimeout(timer);
      this.#id = undefined;
      this.#attempt = undefined;
    }
  }
}

const ENDED: Record<Exclude<Outcome, 'broken' | 'stopped'>, string> = {
  graceful: 'the server ended the subscription',
  refused: 'the server refused subscriptions/listen',
  not_honoured: 'the server does not offer tool list changes',
};

/**
 * A 2026 client's change events come from a subscription: `changes` opens one through `wire` while someone
 * wants them, in the version the client speaks at the time, with no deadline (the acknowledgement has the
 * client's default one).
 */
export function listenForChanges(
  changes: ToolChanges,
  parts: { wire: Wire; engine: Engine; client: { readonly protocolVersion: string }; connectionId: string },
): void {
  const { wire, engine, client } = parts;
  changes.subscribeWith(
    (sink) =>
      new Subscription(
        {
          target: engine.trace.target,
          ackTimeoutMs: engine.defaultTimeoutMs,
          send: (params, { signal, onId }) =>
            wire.request({ era: 'modern', version: client.protocolVersion }, 'subscriptions/listen', params, {
              signal,
              onId,
              timeoutMs: Number.POSITIVE_INFINITY,
              maxTotalTimeoutMs: Number.POSITIVE_INFINITY,
            }),
          connectionClosed: () => engine.closed,
          log: (text) => debugNote(parts.connectionId, text),
        },
        sink,
      ),
  );
}
