/**
 * The host side of the bridge: each request the sandbox makes (`call`, `search`, `describe`, as JSON text)
 * checked against the run's bounds and `allow` globs, sent to the catalog, and answered as JSON text. Keeps
 * one record per tool call, the calls in flight (at most `maxConcurrentCalls`; more wait in order) and the
 * tools' hints (one `describe` per ref per run, asked only when a call fails). Never throws: every outcome is
 * an `Answer`. Once `close()` is called nothing more is sent; calls in flight are aborted and their records
 * take what the catalog says (its `delivery`) while `close()` drains; an answer later than that changes none.
 */
import { setMaxListeners } from 'node:events';
import { globMatch } from '../client/tool-filter.js';
import { type BridgeErrorData, bridgeErrorOf, hintsOf, refusal, type ToolHints } from './host-error.js';
import type { Limits } from './limits.js';
import type { CallRecord, CodeCatalog } from './types.js';

/** A request's outcome, as the JSON text that crosses into the sandbox. */
export interface Answer {
  ok: boolean;
  json: string;
}

interface LiveRecord {
  record: CallRecord;
  started?: number;
  settled: boolean;
}

/** How long `close()` waits for aborted calls to report whether they had left (they settle at once). */
const DRAIN_MS = 1_000;

function failed(data: BridgeErrorData): Answer {
  return { ok: false, json: JSON.stringify(data) };
}

export class Bridge {
  readonly #catalog: CodeCatalog;
  readonly #limits: Limits;
  readonly #allow: readonly string[] | undefined;
  readonly #deadline: number;
  readonly #controller = new AbortController();
  readonly #records: LiveRecord[] = [];
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #waiting: Array<() => void> = [];
  readonly #hints = new Map<string, Promise<ToolHints | undefined>>();
  /** Settles (undefined) when the run ends, so nothing waits on a describe past it. */
  readonly #ended: Promise<undefined>;
  #used = 0;
  #active = 0;
  #closed = false;
  /** Set once `close()` has drained: from then on no record changes. */
  #sealed = false;

  constructor(catalog: CodeCatalog, limits: Limits, allow: readonly string[] | undefined, deadline: number) {
    this.#catalog = catalog;
    this.#limits = limits;
    this.#allow = allow;
    this.#deadline = deadline;
    // Every call in flight listens on this one signal: up to maxConcurrentCalls listeners, not a leak.
    setMaxListeners(0, this.#controller.signal);
    this.#ended = new Promise((resolve) => {
      this.#controller.signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
  }

  /** Answers one request of the sandbox; `payload` is the JSON text the prelude made. */
  async handle(op: string, payload: string): Promise<Answer> {
    if (this.#closed) return failed(refusal('cancelled', 'the run has ended'));
    if (payload.length > this.#limits.maxArgChars)
      return failed(refusal('too_large', `a request of ${payload.length} characters is over the limit`));
    if (this.#used >= this.#limits.maxCalls)
      return failed(
        refusal('call_limit', `the run made ${this.#limits.maxCalls} bridge requests, its limit (maxCalls)`),
      );
    this.#used++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return failed(refusal('invalid_arguments', 'the request is not JSON'));
    }
    if (!Array.isArray(parsed)) return failed(refusal('invalid_arguments', 'the request is not a list'));
    const [first, second] = parsed as unknown[];
    if (op === 'call' && typeof first === 'string' && isObject(second)) return this.#call(first, second);
    if (op === 'search' && typeof first === 'string')
      return this.#plain(() => this.#catalog.search(first, searchOptionsOf(second)));
    if (op === 'describe' && typeof first === 'string')
      return this.#plain(() => this.#catalog.describe(first), first);
    return failed(
      refusal('invalid_arguments', `the bridge has no request "${op.slice(0, 40)}" of that shape`),
    );
  }

  /** Ends the bridge: nothing more is sent, calls in flight are aborted; returns the final records. */
  async close(reason: 'timeout' | 'cancelled' | 'done'): Promise<CallRecord[]> {
    this.#closed = true;
    this.#controller.abort();
    for (const wake of this.#waiting.splice(0)) wake();
    if (this.#inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, DRAIN_MS);
      });
      await Promise.race([Promise.allSettled([...this.#inFlight]), grace]);
      clearTimeout(timer);
    }
    this.#sealed = true;
    const now = performance.now();
    return this.#records.map(({ record, started, settled }) => {
      if (settled) return { ...record };
      const kind = reason === 'done' ? 'cancelled' : reason;
      const ms = started === undefined ? 0 : Math.round(now - started);
      return { ...record, ok: false, ms, delivery: started === undefined ? 'not_sent' : 'unknown', kind };
    });
  }

  async #call(ref: string, args: Record<string, unknown>): Promise<Answer> {
    const live: LiveRecord = { record: { ref, ok: false, ms: 0, delivery: 'not_sent' }, settled: false };
    this.#records.push(live);
    const settle = (patch: Partial<CallRecord>): void => {
      if (this.#sealed) return;
      Object.assign(live.record, patch);
      if (live.started !== undefined) live.record.ms = Math.round(performance.now() - live.started);
      live.settled = true;
    };
    if (this.#allow !== undefined && !this.#allow.some((glob) => globMatch(glob, ref))) {
      settle({ kind: 'denied' });
      return failed(refusal('denied', `${ref} is not in the run's allow list`, ref));
    }
    await this.#turn();
    if (this.#closed) return failed(refusal('cancelled', 'the run has ended', ref));
    live.started = performance.now();
    // Through an async function: a catalog that throws instead of rejecting is answered the same way.
    const sent = (async () =>
      this.#catalog.call(ref, args, {
        signal: this.#controller.signal,
        timeoutMs: Math.max(1, Math.round(this.#deadline - Date.now())),
      }))();
    this.#inFlight.add(sent);
    try {
      const result = await sent;
      const json = jsonOf(result, this.#limits.maxInChars, ref);
      if (typeof json !== 'string') {
        settle({ delivery: 'delivered', kind: json.kind });
        return failed(json);
      }
      const isError = isObject(result) && result['isError'] === true;
      settle({ ok: true, delivery: 'delivered', ...(isError ? { isError } : {}) });
      return { ok: true, json };
    } catch (error) {
      const data = bridgeErrorOf(error, ref);
      settle({ delivery: data.delivery, kind: data.kind });
      const hints = await this.#hintsOf(ref);
      if (hints !== undefined) data.annotations = hints;
      return failed(data);
    } finally {
      this.#inFlight.delete(sent);
      this.#release();
    }
  }

  async #plain(ask: () => Promise<unknown>, ref?: string): Promise<Answer> {
    try {
      const json = jsonOf(await ask(), this.#limits.maxInChars, ref);
      return typeof json === 'string' ? { ok: true, json } : failed(json);
    } catch (error) {
      return failed(bridgeErrorOf(error, ref));
    }
  }

  /** The tool's hints, from one `describe` per ref per run; undefined when it cannot be described in time. */
  #hintsOf(ref: string): Promise<ToolHints | undefined> {
    let hints = this.#hints.get(ref);
    if (hints === undefined) {
      hints = this.#closed
        ? Promise.resolve(undefined)
        : (async () => this.#catalog.describe(ref))().then(hintsOf, () => undefined);
      this.#hints.set(ref, hints);
    }
    return Promise.race([hints, this.#ended]);
  }

  #turn(): Promise<void> {
    if (this.#active < this.#limits.maxConcurrentCalls && this.#waiting.length === 0) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#waiting.push(() => {
        this.#active++;
        resolve();
      });
    });
  }

  #release(): void {
    this.#active--;
    this.#waiting.shift()?.();
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function searchOptionsOf(value: unknown): Parameters<CodeCatalog['search']>[1] {
  if (!isObject(value)) return {};
  const options: { limit?: number; detail?: 'names' | 'descriptions' | 'full' } = {};
  const { limit, detail } = value;
  if (typeof limit === 'number') options.limit = limit;
  if (detail === 'names' || detail === 'descriptions' || detail === 'full') options.detail = detail;
  return options;
}

/** `value` as JSON text within `max` characters, or the error data saying why it cannot cross. */
function jsonOf(value: unknown, max: number, ref?: string): string | BridgeErrorData {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return { ...bridgeErrorOf(error, ref), kind: 'not_plain', delivery: 'delivered' };
  }
  if (json === undefined) return 'null';
  if (json.length > max)
    return {
      ...refusal(
        'too_large',
        `the answer is ${json.length} characters of JSON, over the limit of ${max}`,
        ref,
      ),
      delivery: 'delivered',
    };
  return json;
}
