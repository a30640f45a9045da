/**
 * Reads response bodies within bounds: a whole JSON body up to a byte limit, or an SSE body event by
 * event through the pure `SseParser`, delivering each JSON-RPC message as it arrives. The caller owns
 * the response; these functions destroy the body when they stop early.
 */

import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { McpError } from '../../errors/index.js';
import type { SseParser } from './sse.js';

/**
 * Stops reading a body for good. undici reports a destroy without error as an `'error'` event
 * (`UND_ERR_ABORTED`), which would be uncaught without a listener; that event means nothing here.
 */
/** How much of an error answer's body is read for the server's own words. */
export const ERROR_BODY_LIMIT = 64 * 1024;

export function discard(body: Readable): void {
  body.on('error', ignore);
  body.destroy();
}

function ignore(): void {}

/** How long the rest of a stream may take to end by itself once its final message arrived. */
const RELEASE_GRACE_MS = 1000;

/**
 * Stops waiting on a body whose final message arrived. Servers end the stream right after it (S26 SHOULD),
 * so the few bytes left are drained and the socket stays in the keep-alive pool; destroying it at once
 * would cost a new TCP connection and an error object per call. A stream still open after the grace
 * period is destroyed.
 */
export function release(body: Readable): void {
  if (body.readableEnded || body.destroyed) return;
  body.on('error', ignore);
  const timer = setTimeout(() => body.destroy(), RELEASE_GRACE_MS);
  timer.unref();
  body.once('close', () => clearTimeout(timer));
  body.resume();
}

/**
 * Reads at most `limit` bytes; returns null (body destroyed) when the body is longer. Event listeners,
 * not `for await`: the async iterator costs an iterator, a promise per chunk and an end-of-stream watcher
 * per body, measurable on a ~100 µs loopback call. A body that closes before its end rejects, as the
 * iterator would (premature close).
 */
export function readBounded(body: Readable, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stop = () => {};
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > limit) {
        stop();
        discard(body);
        resolve(null);
        return;
      }
      chunks.push(buf);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (error: unknown) => {
      stop();
      reject(error);
    };
    const onClose = () => {
      stop();
      reject(prematureClose(body));
    };
    if (body.destroyed) {
      reject(prematureClose(body));
      return;
    }
    stop = follow(body, { data: onData, end: onEnd, error: onError, close: onClose });
  });
}

interface BodyListeners {
  data(chunk: Buffer | string): void;
  end(): void;
  error(error: unknown): void;
  close(): void;
}

/** Attaches the four listeners a reader needs; the returned function detaches them all. */
function follow(body: Readable, listeners: BodyListeners): () => void {
  body.on('data', listeners.data);
  body.on('end', listeners.end);
  body.on('error', listeners.error);
  body.on('close', listeners.close);
  return () => {
    body.off('data', listeners.data);
    body.off('end', listeners.end);
    body.off('error', listeners.error);
    body.off('close', listeners.close);
  };
}

/** The error of a body that closed before its end: its own error, or a premature close. */
function prematureClose(body: Readable): Error {
  const reason = body.errored;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error('the response body closed before its end'), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
}

/** Media type of a Content-Type header, lowercased, without parameters. */
export function mediaType(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return '';
  // The common answers need no parsing: a split, trim and lowercase per call cost ~2 µs.
  if (value === 'application/json' || value === 'text/event-stream') return value;
  const semicolon = value.indexOf(';');
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/** What reading an SSE stream came to. */
export type SseOutcome =
  | { type: 'done' }
  | { type: 'ended'; progressed: boolean }
  | { type: 'broken'; progressed: boolean; error: unknown };

export interface SseReadOptions {
  parser: SseParser;
  maxMessageBytes: number;
  label: string;
  deliver(value: unknown): void;
  /** True for the message that completes the exchange (the response to our request); reading stops there. */
  isFinal?(value: unknown): boolean;
  /** Called for an event whose data is not JSON; default: fail with `protocol`. */
  onBadJson?(error: unknown): void;
}

/**
 * Reads SSE events from `body`, delivering the JSON of every `message` event with data (priming events
 * with empty data are skipped, S25/basic/transports). Throws `too_large` or `protocol` (body destroyed);
 * a socket error while reading is returned as `broken`, so the caller can resume or report it. Event
 * listeners rather than `for await`, for the cost given at `readBounded`.
 */
export function readSse(body: Readable, options: SseReadOptions): Promise<SseOutcome> {
  const decoder = new StringDecoder('utf8');
  const startId = options.parser.lastEventId;
  const state = { delivered: false };
  const progressed = () => state.delivered || options.parser.lastEventId !== startId;
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const onData = (chunk: Buffer | string) => {
      let final: boolean;
      try {
        final = feedChunk(body, typeof chunk === 'string' ? chunk : decoder.write(chunk), options, state);
      } catch (error) {
        stop();
        if (error instanceof McpError) reject(error);
        else resolve({ type: 'broken', progressed: progressed(), error });
        return;
      }
      if (final) {
        stop();
        // The body is not destroyed: release() drains the rest so the socket stays pooled.
        release(body);
        resolve({ type: 'done' });
      }
    };
    const onEnd = () => {
      stop();
      resolve({ type: 'ended', progressed: progressed() });
    };
    const onError = (error: unknown) => {
      stop();
      resolve({ type: 'broken', progressed: progressed(), error });
    };
    const onClose = () => {
      stop();
      resolve({ type: 'broken', progressed: progressed(), error: prematureClose(body) });
    };
    if (body.destroyed) {
      resolve({ type: 'broken', progressed: false, error: prematureClose(body) });
      return;
    }
    stop = follow(body, { data: onData, end: onEnd, error: onError, close: onClose });
  });
}

/**
 * Feeds one decoded chunk to the parser and delivers its messages; true once the final message arrived
 * (later events in the same chunk are left unread, as the stream is over for this exchange).
 */
function feedChunk(
  body: Readable,
  text: string,
  options: SseReadOptions,
  state: { delivered: boolean },
): boolean {
  for (const item of options.parser.feed(text)) {
    if (item.type === 'error') {
      discard(body);
      throw new McpError(
        'too_large',
        `${options.label}: an SSE event exceeds ${options.maxMessageBytes} bytes`,
        {
          delivery: 'unknown',
        },
      );
    }
    if (item.event !== 'message' || item.data === '') continue;
    // A UTF-16 code unit is at most 3 UTF-8 bytes: only data that could be over the limit is counted.
    if (
      item.data.length * 3 > options.maxMessageBytes &&
      Buffer.byteLength(item.data) > options.maxMessageBytes
    ) {
      discard(body);
      throw new McpError(
        'too_large',
        `${options.label}: an SSE message exceeds ${options.maxMessageBytes} bytes`,
        { delivery: 'unknown' },
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(item.data);
    } catch (cause) {
      if (options.onBadJson !== undefined) {
        options.onBadJson(cause);
        continue;
      }
      discard(body);
      throw new McpError('protocol', `${options.label}: an SSE event carries data that is not JSON`, {
        delivery: 'unknown',
        cause,
      });
    }
    state.delivered = true;
    options.deliver(value);
    if (options.isFinal?.(value) === true) return true;
  }
  return false;
}
