/**
 * `nullGaps`: the documented way to send an array with gaps across the worker's plain-data boundary. The
 * boundary itself is config's one plain-data copier (`config/plain-data.ts`): a sparse array (a hole, or
 * an `undefined` slot) is refused there, never compacted, so a gap has to be said with an explicit `null`.
 */

/**
 * A dense copy of `array` in which every hole and every `undefined` slot is an explicit `null`: the way to
 * send an array with gaps across the boundary (its `length` is kept). Other items are not changed.
 */
export function nullGaps<T>(array: ArrayLike<T>): Array<T | null> {
  const out = new Array<T | null>(array.length);
  for (let i = 0; i < array.length; i++) out[i] = array[i] ?? null;
  return out;
}
