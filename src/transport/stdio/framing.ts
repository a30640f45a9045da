/**
 * Pure line-delimited JSON decoder for the stdio transport: one JSON-RPC message per `\n`-terminated line,
 * `\r\n` tolerated, empty lines ignored, a UTF-8 byte-order mark before the first line removed
 * (S25/basic/transports, S26/basic/transports/stdio). A line that is not JSON is skipped and reported, not
 * fatal: servers print banners and log lines there, and the shell decides how many it tolerates.
 * Cost is linear in the bytes fed: chunks are kept in a list and joined once, when their line ends;
 * only each new chunk is scanned for `\n`, and a line crossing `maxMessageBytes` fails at once.
 */
import { redact } from '../../internal/redact.js';

/** A decoding failure, as data: the shell turns it into an `McpError`. */
export interface FramingError {
  type: 'too_large';
  message: string;
}

/** A line that was not JSON, skipped. */
export interface SkippedLine {
  /** The line's length in bytes. */
  bytes: number;
  /** Its start, redacted, control characters removed, at most ~80 characters, quoted. */
  preview: string;
}

/**
 * What one `feed()` produced: the parsed values in order, the lines skipped (absent when none), then at
 * most one error (after which the decoder is dead).
 */
export interface FeedResult {
  values: unknown[];
  skipped?: SkippedLine[];
  error?: FramingError;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf] as const;
const PREVIEW_CHARS = 80;

/**
 * Splits a byte stream into lines and parses each line as JSON, with a per-line byte limit. `accept` may
 * turn down a parsed value (JSON that is not a message): it is then skipped like a line that is not JSON.
 */
export class LineDecoder {
  readonly #maxLineBytes: number;
  readonly #accept: ((value: unknown) => boolean) | undefined;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #failed = false;
  /** True until the first line is complete: only it may start with a byte-order mark. */
  #first = true;
  /** How many times pending chunks were joined (one per completed multi-chunk line); exposed to prove linearity. */
  concatCount = 0;

  constructor(maxLineBytes: number, accept?: (value: unknown) => boolean) {
    this.#maxLineBytes = maxLineBytes;
    this.#accept = accept;
  }

  /** Bytes held for the line in progress. */
  get bufferedBytes(): number {
    return this.#pendingBytes;
  }

  /** Feeds one chunk. After an error is returned, further chunks are ignored. */
  feed(chunk: Uint8Array): FeedResult {
    const values: unknown[] = [];
    let skipped: SkippedLine[] | undefined;
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
        return this.#fail(values, skipped, {
          type: 'too_large',
          message: `a stdout line exceeded the ${this.#maxLineBytes}-byte message limit`,
        });
      }
      if (nl === -1) {
        this.#pending.push(buf.subarray(start));
        this.#pendingBytes += buf.length - start;
        break;
      }
      let line = this.#takeLine(buf.subarray(start, nl));
      start = nl + 1;
      if (this.#first) {
        this.#first = false;
        if (line[0] === BOM[0] && line[1] === BOM[1] && line[2] === BOM[2]) line = line.subarray(3);
      }
      if (line.length > this.#maxLineBytes) {
        return this.#fail(values, skipped, {
          type: 'too_large',
          message: `a stdout line exceeded the ${this.#maxLineBytes}-byte message limit`,
        });
      }
      if (isBlank(line)) continue;
      const text = line.toString('utf8');
      let value: unknown;
      let ok = true;
      try {
        value = JSON.parse(text);
      } catch {
        ok = false;
      }
      if (ok && (this.#accept === undefined || this.#accept(value))) {
        values.push(value);
        continue;
      }
      skipped ??= [];
      skipped.push({ bytes: line.length, preview: preview(text) });
    }
    return skipped === undefined ? { values } : { values, skipped };
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

  #fail(values: unknown[], skipped: SkippedLine[] | undefined, error: FramingError): FeedResult {
    this.#failed = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    return skipped === undefined ? { values, error } : { values, skipped, error };
  }
}

function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  }
  return true;
}

/** A short, quoted, redacted preview of a line, safe for a terminal. */
export function preview(text: string): string {
  // Cut before redacting: only the first ~80 characters (and a margin) of a line are looked at.
  const oneLine = redact(text, PREVIEW_CHARS + 1).replace(
    /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    ' ',
  );
  return oneLine.length > PREVIEW_CHARS
    ? `${JSON.stringify(oneLine.slice(0, PREVIEW_CHARS))}…`
    : JSON.stringify(oneLine);
}

/**
 * A value that claims to be a JSON-RPC message; anything else on stdout (a JSON log line) is noise. A
 * cheap check: the client validates the message in full, and a broken one that claims `jsonrpc` fails it.
 */
export function isMessage(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}
