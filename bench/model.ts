// The result model every bench group produces and the report renders: named sections of rows, one value per
// client, with an optional per-round ratio sample against the raw floor and against SDK v2.

/** One measured value for one client. `ratioVsRaw`/`ratioVsSdkV2` are medians of per-round ratios when known. */
export interface Cell {
  value: number;
  ratioVsRaw?: number;
  ratioVsSdkV2?: number;
  /** Against the second HTTP floor (undici's `request`), where it ran. */
  ratioVsUndici?: number;
  note?: string;
}

/** One table row: a measure (e.g. "stdio 2026-07-28 p50") with a cell per client; missing = not applicable. */
export interface Row {
  label: string;
  unit: string;
  /** True when a smaller value is better (latency, bytes); false for throughput. */
  lowerIsBetter: boolean;
  cells: Record<string, Cell | undefined>;
  /** Whether the SVG chart should plot this row's ratio vs raw. */
  chart?: boolean;
}

/** One group of rows under a heading. */
export interface Section {
  id: string;
  title: string;
  description: string;
  rows: Row[];
}

/** Everything one run produced, plus the context it ran in. */
export interface BenchReport {
  startedAt: string;
  durationMs: number;
  command: string;
  quick: boolean;
  machine: { os: string; cpu: string; cores: number; memoryGiB: number; node: string };
  clients: string[];
  sections: Section[];
  skipped: string[];
}
