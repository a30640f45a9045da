// Pure statistics for the bench: quantiles by nearest rank on a sorted copy, and the median.

/** The q-quantile (0..1) by nearest rank; NaN for an empty sample. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  const value = sorted[rank];
  if (value === undefined) throw new Error(`quantile: no value at rank ${rank} of ${sorted.length}`);
  return value;
}

/** The median (the 0.5 quantile, averaging the middle pair for even sizes). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid];
  if (upper === undefined) throw new Error(`median: no value at index ${mid} of ${sorted.length}`);
  if (sorted.length % 2 === 1) return upper;
  const lower = sorted[mid - 1];
  if (lower === undefined) throw new Error(`median: no value at index ${mid - 1} of ${sorted.length}`);
  return (lower + upper) / 2;
}

/** Rotates `items` left by `by` places: round r runs clients in rotated order so no client always goes first. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const k = ((by % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
