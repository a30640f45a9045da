/** Cutting a stream's text or bytes into chunks, to feed parsers the way a socket or pipe would. */

/**
 * Cuts `input` at the given offsets (each taken modulo `input.length + 1`, then deduplicated and sorted)
 * and returns the pieces in order; they join back to `input`. Empty pieces are kept.
 */
export function cutAt<T extends string | Buffer>(input: T, offsets: readonly number[]): T[] {
  const points = [...new Set(offsets.map((o) => o % (input.length + 1)))].sort((a, b) => a - b);
  const piece = (start: number, end?: number) =>
    (typeof input === 'string' ? input.slice(start, end) : input.subarray(start, end)) as T;
  const pieces: T[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(piece(from, point));
    from = point;
  }
  pieces.push(piece(from));
  return pieces;
}
