// Number formatting shared by the markdown table and the SVG chart, so both show the same figures.

/** A measured value with precision that suits its size (3 decimals under 10, 1 under 100, none above). */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(abs >= 1 ? 2 : 3);
}

/** A cost ratio, e.g. `1.24×`. */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}
