// One call returning a large text result (8 MiB, 64 MiB) at 2025-11-25, so every client can take part.
// The SDK clients' 10 MiB stdio line cap is raised for this group (see clients/sdk-v2.ts); it is noted.
import type { BenchClient, BenchConnection, Target } from '../clients/types.js';
import type { Row, Section } from '../model.js';
import { median } from '../stats.js';
import { startHttpServer, stdioTarget } from '../targets.js';
import { cells, interleave } from './interleave.js';

const MiB = 1024 * 1024;

async function measure(
  clients: readonly BenchClient[],
  label: string,
  target: Target,
  bytes: number,
  rounds: number,
): Promise<Row> {
  const active = clients.filter((c) => c.supports(target));
  const conns = new Map<string, BenchConnection>();
  try {
    for (const c of active) {
      const conn = await c.connect(target);
      conns.set(c.name, conn);
      // One untimed call at full size: the server builds and caches the payload, the client warms its buffers.
      await conn.call('blob', { bytes }).catch(() => undefined);
    }
    // A client that fails (size cap, timeout) is reported as failed instead of ending the whole run.
    const failed = new Map<string, string>();
    const samples = await interleave(
      active.map((c) => c.name),
      rounds,
      async (name) => {
        if (failed.has(name)) return [Number.NaN];
        try {
          const t0 = process.hrtime.bigint();
          const result = (await conns.get(name)!.call('blob', { bytes })) as {
            content?: { text?: string }[];
          };
          const elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
          const got = result.content?.[0]?.text?.length;
          if (got !== bytes) throw new Error(`want ${bytes} bytes of text, got ${got}`);
          return [elapsed];
        } catch (error) {
          failed.set(name, (error as Error).message.slice(0, 120));
          return [Number.NaN];
        }
      },
    );
    for (const name of failed.keys()) samples.delete(name);
    const row: Row = { label, unit: 'ms', lowerIsBetter: true, chart: true, cells: cells(samples, median) };
    for (const [name, message] of failed) row.cells[name] = { value: Number.NaN, note: `failed: ${message}` };
    return row;
  } finally {
    for (const conn of conns.values()) await conn.close().catch(() => {});
  }
}

/** Runs the large-result group; `sizes` in MiB, with the rounds for each. */
export async function runLarge(
  clients: readonly BenchClient[],
  options: { sizes: { mib: number; rounds: number; http: boolean }[]; log: (line: string) => void },
): Promise<Section> {
  const rows: Row[] = [];
  const revision = '2025-11-25';
  for (const { mib, rounds } of options.sizes) {
    rows.push(await measure(clients, `${mib} MiB result stdio`, stdioTarget(revision), mib * MiB, rounds));
    options.log(`large ${mib} MiB stdio`);
  }
  const server = await startHttpServer(false);
  try {
    for (const { mib, rounds, http } of options.sizes) {
      if (!http) continue;
      rows.push(
        await measure(clients, `${mib} MiB result HTTP JSON`, server.target(revision), mib * MiB, rounds),
      );
      options.log(`large ${mib} MiB HTTP`);
    }
  } finally {
    await server.stop();
  }
  return {
    id: 'large',
    title: 'Large results',
    description:
      'One `blob` call returning a text block of the given size, at 2025-11-25; median over rounds. ' +
      'The SDK clients run with `maxBufferSize` raised to 256 MiB: their 10 MiB default rejects a 64 MiB line.',
    rows,
  };
}
