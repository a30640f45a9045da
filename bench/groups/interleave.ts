// Interleaved rounds: in round r every client runs its sample in rotated order, so machine noise (other
// processes, thermal, GC in the harness) lands on all clients alike. Ratios are taken per round, then the
// median of those ratios is reported, which cancels drift between rounds.

import type { Cell } from '../model.js';
import { median, rotate } from '../stats.js';

/** Per-client samples: `rounds[r]` is the list of measurements client took in round r. */
export type Samples = Map<string, number[][]>;

/** Runs `rounds` rounds; `sample(name, round)` returns the measurements of one client in one round. */
export async function interleave(
  names: readonly string[],
  rounds: number,
  sample: (name: string, round: number) => Promise<number[]>,
): Promise<Samples> {
  const out: Samples = new Map(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of rotate(names, r)) {
      const list = out.get(name);
      if (list === undefined) throw new Error(`interleave: no sample list for ${name}`);
      list.push(await sample(name, r));
    }
  }
  return out;
}

/**
 * Builds one cell per client from per-round statistics: `value` is `stat` over all measurements, ratios are
 * the median over rounds of `stat(client round) / stat(reference round)`. `invert` turns a rate into a cost.
 */
export function cells(
  samples: Samples,
  stat: (values: number[]) => number,
  invert = false,
): Record<string, Cell> {
  const result: Record<string, Cell> = {};
  const perRound = (name: string) => samples.get(name)?.map(stat);
  for (const [name, rounds] of samples) {
    const mine = rounds.map(stat);
    const ratio = (reference: string): number | undefined => {
      const ref = perRound(reference);
      if (ref === undefined || ref.length !== mine.length) return undefined;
      return median(
        mine.map((v, i) => {
          const w = ref[i];
          if (w === undefined) throw new Error(`cells: ${reference} has no round ${i}`);
          return invert ? w / v : v / w;
        }),
      );
    };
    const cell: Cell = { value: stat(rounds.flat()) };
    const vsRaw = ratio('raw');
    const vsSdk = ratio('sdk-v2');
    if (vsRaw !== undefined) cell.ratioVsRaw = vsRaw;
    if (vsSdk !== undefined) cell.ratioVsSdkV2 = vsSdk;
    const vsUndici = name === 'raw-undici' ? undefined : ratio('raw-undici');
    if (vsUndici !== undefined) cell.ratioVsUndici = vsUndici;
    result[name] = cell;
  }
  return result;
}
