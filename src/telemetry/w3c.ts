/**
 * The W3C text forms SEP-414 puts in a request's `_meta`: `traceparent` (W3C Trace Context §3.2),
 * `tracestate` as the span context serializes it, and `baggage` (W3C Baggage §3). Pure: no OpenTelemetry
 * import, tested alone.
 */

/** W3C Baggage §3.3.2: at most 180 list-members and 8192 bytes; members past either are left out whole. */
export const MAX_BAGGAGE_MEMBERS = 180;
export const MAX_BAGGAGE_BYTES = 8192;

const HEX_TRACE_ID = /^[0-9a-f]{32}$/;
const HEX_SPAN_ID = /^[0-9a-f]{16}$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/** `00-<trace-id>-<parent-id>-<flags>`, or `undefined` for ids W3C calls invalid (all zeros, wrong form). */
export function traceparent(traceId: string, spanId: string, flags: number): string | undefined {
  if (!HEX_TRACE_ID.test(traceId) || traceId === ZERO_TRACE_ID) return undefined;
  if (!HEX_SPAN_ID.test(spanId) || spanId === ZERO_SPAN_ID) return undefined;
  return `00-${traceId}-${spanId}-${(flags & 0xff).toString(16).padStart(2, '0')}`;
}

/** One baggage entry as OpenTelemetry holds it: a value and optional metadata (properties). */
export interface BaggageEntryLike {
  readonly value: string;
  readonly metadata?: { toString(): string } | undefined;
}

/**
 * The `baggage` header value of `entries` (`key=value;properties`, comma-separated, values percent-encoded),
 * within W3C's limits; `undefined` when nothing is left.
 */
export function baggage(entries: Iterable<readonly [string, BaggageEntryLike]>): string | undefined {
  const members: string[] = [];
  let bytes = 0;
  for (const [key, entry] of entries) {
    if (members.length >= MAX_BAGGAGE_MEMBERS) break;
    const properties = entry.metadata?.toString();
    const member = `${encodeURIComponent(key)}=${encodeURIComponent(entry.value)}${properties ? `;${properties}` : ''}`;
    const size = Buffer.byteLength(member) + (members.length > 0 ? 1 : 0);
    if (bytes + size > MAX_BAGGAGE_BYTES) continue;
    members.push(member);
    bytes += size;
  }
  return members.length > 0 ? members.join(',') : undefined;
}
