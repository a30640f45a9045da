/**
 * The 2025-11-25 GET stream for server-initiated messages (S25/basic/transports "Listening for Messages
 * from the Server"): opened on request, 405 means the server has none, reconnects with `Last-Event-ID`
 * after the `retry` delay under the reconnect policy of backoff.ts (floor, backoff with jitter, a budget of
 * reconnects without progress), and stops on close. Its failures are diagnostics, not fatal.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LISTEN_BUDGET, madeProgress, Reconnect } from './backoff.js';
import { discard, readSse } from './body.js';
import { errorCode } from './failures.js';
import type { PoolResponse } from './pool.js';
import { type HttpShell, issue } from './shell.js';
import { SseParser } from './sse.js';

export class ListenStream {
  private readonly controller = new AbortController();
  private readonly shell: HttpShell;
  private readonly diagnostic: (text: string) => void;
  private running = false;

  constructor(shell: HttpShell, diagnostic: (text: string) => void) {
    this.shell = shell;
    this.diagnostic = diagnostic;
  }

  /** Starts the loop once; later calls do nothing while it runs. */
  start(): void {
    if (this.running || this.controller.signal.aborted) return;
    this.running = true;
    void this.loop().finally(() => {
      this.running = false;
    });
  }

  /** Stops the loop and closes the open stream, if any. */
  stop(): void {
    this.controller.abort();
  }

  private async loop(): Promise<void> {
    const signal = this.controller.signal;
    const reconnect = new Reconnect({ budget: LISTEN_BUDGET });
    let lastEventId = '';
    let retry: number | undefined;
    while (!signal.aborted) {
      const parser = new SseParser({ maxEventChars: this.shell.maxMessageBytes + 1024 });
      parser.lastEventId = lastEventId;
      parser.retry = retry;
      const openedAt = performance.now();
      const outcome = await this.once(parser, lastEventId, signal);
      if (outcome === 'stop' || signal.aborted) return;
      lastEventId = parser.lastEventId;
      retry = parser.retry;
      // Progress is a delivered message (or a long-lived stream), never a fresh event id alone.
      reconnect.ended(madeProgress(outcome === 'delivered', performance.now() - openedAt));
      const delay = reconnect.next(retry);
      if (delay === undefined) {
        this.diagnostic(
          `GET stream of ${this.shell.target}: gave up after ${LISTEN_BUDGET} reconnects without events`,
        );
        return;
      }
      if (this.shell.logging) this.shell.log(`GET listen: reconnecting in ${delay}ms`);
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        return;
      }
    }
  }

  /** One GET; says whether to stop for good, or whether this attempt delivered any message. */
  private async once(
    parser: SseParser,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<'stop' | 'delivered' | 'idle'> {
    let response: PoolResponse;
    try {
      const spec = lastEventId === '' ? { method: 'GET' as const } : { method: 'GET' as const, lastEventId };
      ({ response } = await issue(this.shell, spec, null, signal));
    } catch (error) {
      if (!signal.aborted)
        this.diagnostic(`GET stream of ${this.shell.target}: ${errorCode(error) ?? 'network error'}`);
      return 'idle';
    }
    const { statusCode: status, body } = response;
    this.shell.log(`GET listen -> ${status}`);
    if (status === 405) {
      discard(body);
      return 'stop'; // the server offers no GET stream: quietly done (S25/basic/transports)
    }
    if (status < 200 || status >= 300) {
      discard(body);
      this.diagnostic(`GET stream of ${this.shell.target}: HTTP ${status}`);
      return status >= 500 ? 'idle' : 'stop';
    }
    const type = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (type !== 'text/event-stream') {
      discard(body);
      this.diagnostic(`GET stream of ${this.shell.target}: not text/event-stream`);
      return 'stop';
    }
    let delivered = false;
    try {
      await readSse(body, {
        parser,
        maxMessageBytes: this.shell.maxMessageBytes,
        label: `GET stream of ${this.shell.target}`,
        deliver: (value) => {
          delivered = true;
          this.shell.deliver(value);
        },
        onBadJson: () =>
          this.diagnostic(`GET stream of ${this.shell.target}: skipped an event that is not JSON`),
      });
    } catch (error) {
      discard(body);
      this.diagnostic(`GET stream of ${this.shell.target}: ${(error as Error).message}`);
    }
    return delivered ? 'delivered' : 'idle';
  }
}
