/**
 * Pure line-delimited JSON decoder for the stdio transport: one JSON-RPC message per `\n`-terminated line,
 * `\r\n` tolerated, empty lines ignored (S25/basic/transports, S26/basic/transports/stdio).
 * Cost is linear in the bytes fed: chunks are kept in a list and joined once, when their line ends;
 * only each new chunk is scanned for `\n`, and a line crossing `maxMessageBytes` fails at once.
 */
import { redact } from '../../internal/redact.js';

/** A decoding failure, as data: the shell turns it into an `McpError`. */
export interface FramingError {
  type: 'too_large' | 'not_json';
  /** Human-readable, redacted, at most ~80 characters of the offending line. */
  message: string;
}

/** What one `feed()` produced: the parsed values in order, then at most one error (after which the decoder is dead). */
export interface FeedResult {
  values: unknown[];
  error?: FramingError;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const PREVIEW_CHARS = 80;

/** Splits a byte stream into lines and parses each line as JSON, with a per-line byte limit. */
export class LineDecoder {
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #failed = false;
  /** How many times pending chunks were joined (one per completed multi-chunk line); exposed to prove linearity. */
  concatCount = 0;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Bytes held for the line in progress. */
  get bufferedBytes(): number {
    return this.#pendingBytes;
  }

  /** Feeds one chunk. After an error is returned, further chunks are ignored. */
  feed(chunk: Uint8Array): FeedResult {
    const values: unknown[] = [];
    if (this.#failed) return { values };
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(NEWLINE, start);
      const end = nl === -1 ? buf.length : nl;
      // The limit counts line content without its terminator; one extra byte is allowed while the line is
      // open because it may be the '\r' of a '\r\n'. Checked before buffering, so we never hold more.
      if (this.#pendingBytes + (end - start) > this.#maxLineBytes + 1) {
        return this.#fail(values, {
          type: 'too_large',
          message: `a stdout line exceeded the ${this.#maxLineBytes}-byte message limit`,
        });
      }
      if (nl === -1) {
        this.#pending.push(buf.subarray(start));
        this.#pendingBytes += buf.length - start;
        break;
      }
      const line = this.#takeLine(buf.subarray(start, nl));
      start = nl + 1;
      if (line.length > this.#maxLineBytes) {
        return this.#fail(values, {
          type: 'too_large',
          message: `a stdout line exceeded the ${this.#maxLineBytes}-byte message limit`,
        });
      }
      if (isBlank(line)) continue;
      const text = line.toString('utf8');
      try {
        values.push(JSON.parse(text));
      } catch {
        return this.#fail(values, {
          type: 'not_json',
          message: `server wrote a stdout line that is not JSON: ${preview(text)}`,
        });
      }
    }
    return { values };
  }

  /** Joins the pending chunks with the final piece, drops a trailing `\r`, and resets the buffer. */
  #takeLine(last: Buffer): Buffer {
    let line: Buffer;
    if (this.#pending.length === 0) line = last;
    else {
      this.#pending.push(last);
      line = Buffer.concat(this.#pending, this.#pendingBytes + last.length);
      this.concatCount++;
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line;
  }

  #fail(values: unknown[], error: FramingError): FeedResult {
    this.#failed = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    return { values, error };
  }
}

function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  }
  return true;
}

function preview(text: string): string {
  const oneLine = redact(text.slice(0, PREVIEW_CHARS * 4)).replace(/[\u0000-\u001f\u007f]/g, ' ');
  return oneLine.length > PREVIEW_CHARS
    ? `${JSON.stringify(oneLine.slice(0, PREVIEW_CHARS))}…`
    : JSON.stringify(oneLine);
}
