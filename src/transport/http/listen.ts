/**
 * The 2025-11-25 GET stream for server-initiated messages (S25/basic/transports "Listening for Messages
 * from the Server"): opened on request, 405 means the server has none, reconnects with `Last-Event-ID`
 * after the `retry` delay or a bounded backoff, and stops on close. Its failures are diagnostics, not fatal.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { discard, readSse } from './body.js';
import { errorCode } from './failures.js';
import { type HttpShell, issue } from './shell.js';
import { SseParser } from './sse.js';

/** Consecutive attempts without any event before the stream is given up. */
const MAX_FRUITLESS_ATTEMPTS = 5;
const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

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
    let lastEventId = '';
    let retry: number | undefined;
    let fruitless = 0;
    while (!signal.aborted) {
      const parser = new SseParser({ maxEventChars: this.shell.maxMessageBytes + 1024 });
      parser.lastEventId = lastEventId;
      parser.retry = retry;
      const outcome = await this.once(parser, lastEventId, signal);
      if (outcome === 'stop' || signal.aborted) return;
      lastEventId = parser.lastEventId;
      retry = parser.retry;
      fruitless = outcome === 'progressed' ? 0 : fruitless + 1;
      if (fruitless >= MAX_FRUITLESS_ATTEMPTS) {
        this.diagnostic(
          `GET stream of ${this.shell.target}: gave up after ${fruitless} attempts without events`,
        );
        return;
      }
      const delay = retry ?? Math.min(BASE_BACKOFF_MS * 2 ** fruitless, MAX_BACKOFF_MS);
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        return;
      }
    }
  }

  /** One GET; says whether to stop for good, or whether this attempt brought anything. */
  private async once(
    parser: SseParser,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<'stop' | 'progressed' | 'idle'> {
    let response: Dispatcher.ResponseData;
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
    try {
      const outcome = await readSse(body, {
        parser,
        maxMessageBytes: this.shell.maxMessageBytes,
        label: `GET stream of ${this.shell.target}`,
        deliver: (value) => this.shell.deliver(value),
        onBadJson: () =>
          this.diagnostic(`GET stream of ${this.shell.target}: skipped an event that is not JSON`),
      });
      return outcome.type !== 'done' && outcome.progressed ? 'progressed' : 'idle';
    } catch (error) {
      discard(body);
      this.diagnostic(`GET stream of ${this.shell.target}: ${(error as Error).message}`);
      return 'idle';
    }
  }
}
