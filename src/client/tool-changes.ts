/**
 * Change events of one client's tool list: who wants them (`onToolsChanged` listeners and the
 * `onToolListChanged` option), the cached list dropped on each, and in 2026 the `subscriptions/listen`
 * held open only while someone wants them (subscription.ts). A change is a flag, not a queue: a burst of
 * notifications — or a server flooding them — reaches listeners as one event per turn of the event loop
 * and holds no memory. Spec: S25+26/server/tools (list_changed), S26/basic/patterns/subscriptions.
 */
import { debugLog } from '../diagnostics/publish.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { ToolCatalog } from './catalog.js';
import type { Subscription, SubscriptionSink } from './subscription.js';

/** What a tool change listener is told. */
export interface ToolsChangedEvent {
  /** The server's display name (its config target). */
  target: string;
  /**
   * `'changed'`: the server said its tools changed. `'resumed'`: the 2026 subscription was reopened after
   * a break, so a change may have been missed. `'ended'`: the subscription that was live ended (by the
   * server, or it broke too often): a change may have been missed and no more events will come. Each of
   * these drops the client's cached list first. `'unavailable'` (2026): no subscription could be had (the
   * server refused it, does not offer tool changes, or never acknowledged it): no events will come, and
   * the cached list stays as the server's `ttlMs` allows. Only listing again then shows changes.
   */
  reason: 'changed' | 'resumed' | 'ended' | 'unavailable';
}

/** Told when a server's tools changed; a throw is logged and the client goes on. */
export type ToolsChangedListener = (event: ToolsChangedEvent) => void;

/** The weight of each reason when several arrive in one turn: the strongest is told. */
const WEIGHT = { unavailable: 0, changed: 1, resumed: 2, ended: 3 } as const;

export class ToolChanges {
  readonly #target: string;
  readonly #catalog: ToolCatalog;
  readonly #option: ToolsChangedListener | undefined;
  readonly #listeners = new Set<ToolsChangedListener>();
  /** The reason waiting to be told, if any (one flag, whatever arrived). */
  #pending: ToolsChangedEvent['reason'] | undefined;
  /** True while this turn of the event loop already told one event (the next ones wait for its end). */
  #told = false;
  /** 2026: opens the subscription (set once the client is ready); undefined in 2025. */
  #open: ((sink: SubscriptionSink) => Subscription) | undefined;
  #subscription: Subscription | undefined;
  /** 2025: what makes the server's notifications reach the client once someone wants them (the HTTP GET stream). */
  #reach: (() => void) | undefined;
  /** The subscription ended by itself: not reopened on this connection. */
  #over = false;
  #closed = false;

  constructor(target: string, catalog: ToolCatalog, option: ToolsChangedListener | undefined) {
    this.#target = target;
    this.#catalog = catalog;
    this.#option = option;
  }

  /** Adds a listener; the returned function removes it (idempotent). */
  add(listener: ToolsChangedListener): () => void {
    const own = (event: ToolsChangedEvent) => listener(event); // a listener added twice is two listeners
    this.#listeners.add(own);
    this.#follow();
    return () => {
      this.#listeners.delete(own);
      this.#follow();
    };
  }

  /** The connection speaks 2026: change events need a `subscriptions/listen`, opened through `open`. */
  subscribeWith(open: (sink: SubscriptionSink) => Subscription): void {
    this.#open = open;
    this.#follow();
  }

  /** The connection speaks 2025: `reach` is called when events are first wanted (idempotent). */
  reachWith(reach: () => void): void {
    this.#reach = reach;
    this.#follow();
  }

  /**
   * A tool change notification, or one of the 2026 subscription. In 2025 every `tools/list_changed`
   * counts; in 2026 only what the live subscription accepts (its id, after its acknowledgement).
   */
  receive(message: JsonRpcNotification): void {
    if (this.#open !== undefined) {
      this.#subscription?.receive(message);
      return;
    }
    if (message.method === 'notifications/tools/list_changed') this.#tell('changed');
  }

  /** The client closes: the subscription is cancelled, nothing more is told. */
  close(): void {
    this.#closed = true;
    this.#pending = undefined;
    this.#subscription?.stop();
    this.#subscription = undefined;
  }

  /** Opens the 2026 subscription while someone wants events, and cancels it once nobody does. */
  #follow(): void {
    const wanted = !this.#closed && (this.#listeners.size > 0 || this.#option !== undefined);
    if (wanted) this.#reach?.();
    if (wanted && this.#subscription === undefined && this.#open !== undefined && !this.#over) {
      this.#subscription = this.#open({
        changed: () => this.#tell('changed'),
        resumed: () => this.#tell('resumed'),
        ended: (why, held) => {
          debugLog('%s: no more tool change events: %s', this.#target, why);
          this.#over = true;
          this.#subscription = undefined;
          this.#tell(held ? 'ended' : 'unavailable');
        },
      });
    } else if (!wanted && this.#subscription !== undefined) {
      this.#subscription.stop();
      this.#subscription = undefined;
    }
  }

  /**
   * Drops the cached list now and tells the listeners: at once for the first event of a turn of the event
   * loop (so a change is known before the responses read after it), once more at its end for all the
   * others together.
   */
  #tell(reason: ToolsChangedEvent['reason']): void {
    if (this.#closed) return;
    if (reason !== 'unavailable') this.#catalog.invalidate();
    if (!this.#told) {
      this.#told = true;
      setImmediate(() => {
        this.#told = false;
        this.#flush();
      });
      this.#emit(reason);
      return;
    }
    const before = this.#pending;
    if (before === undefined || WEIGHT[before] < WEIGHT[reason]) this.#pending = reason;
  }

  #flush(): void {
    const reason = this.#pending;
    this.#pending = undefined;
    if (reason !== undefined) this.#emit(reason);
  }

  #emit(reason: ToolsChangedEvent['reason']): void {
    if (this.#closed) return;
    const event: ToolsChangedEvent = { target: this.#target, reason };
    for (const listener of [...(this.#option ? [this.#option] : []), ...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        debugLog('a tool change listener threw: %o', error);
      }
    }
  }
}
