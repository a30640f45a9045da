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

/** Reads at most `limit` bytes; returns null (body destroyed) when the body is longer. */
export async function readBounded(body: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) {
      discard(body);
      return null;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}

/** Media type of a Content-Type header, lowercased, without parameters. */
export function mediaType(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
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
 * a socket error while reading is returned as `broken`, so the caller can resume or report it.
 */
export async function readSse(body: Readable, options: SseReadOptions): Promise<SseOutcome> {
  const decoder = new StringDecoder('utf8');
  const startId = options.parser.lastEventId;
  let delivered = false;
  const progressed = () => delivered || options.parser.lastEventId !== startId;
  try {
    // destroyOnReturn: false — returning after the final message must not destroy the body (see release()).
    for await (const chunk of body.iterator({ destroyOnReturn: false })) {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
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
        if (Buffer.byteLength(item.data) > options.maxMessageBytes) {
          discard(body);
          throw new McpError(
            'too_large',
            `${options.label}: an SSE message exceeds ${options.maxMessageBytes} bytes`,
            {
              delivery: 'unknown',
            },
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
        delivered = true;
        options.deliver(value);
        if (options.isFinal?.(value) === true) {
          release(body);
          return { type: 'done' };
        }
      }
    }
  } catch (error) {
    if (error instanceof McpError) throw error;
    return { type: 'broken', progressed: progressed(), error };
  }
  return { type: 'ended', progressed: progressed() };
}
