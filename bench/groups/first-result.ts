// Time to first result: from connect (spawning the server on stdio) to the first `echo` result, per revision.
// This is what an agent pays when it calls a tool on a server it has not opened yet.
import type { BenchClient, Revision, Target } from '../clients/types.js';
import type { Row, Section } from '../model.js';
import { median } from '../stats.js';
import { startHttpServer, stdioTarget } from '../targets.js';
import { cells, interleave } from './interleave.js';

async function measure(
  clients: readonly BenchClient[],
  label: string,
  target: Target,
  rounds: number,
): Promise<Row> {
  const active = clients.filter((c) => c.supports(target));
  const byName = new Map(active.map((c) => [c.name, c]));
  const samples = await interleave(
    active.map((c) => c.name),
    rounds,
    async (name) => {
      const client = byName.get(name);
      if (client === undefined) throw new Error(`first result: no client named ${name}`);
      const t0 = process.hrtime.bigint();
      const conn = await client.connect(target);
      await conn.call('echo', { text: 'first' });
      const elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
      await conn.close();
      return [elapsed];
    },
  );
  return { label, unit: 'ms', lowerIsBetter: true, chart: true, cells: cells(samples, median) };
}

/** Runs the time-to-first-result group. */
export async function runFirstResult(
  clients: readonly BenchClient[],
  options: { rounds: number; log: (line: string) => void },
): Promise<Section> {
  const rows: Row[] = [];
  const revisions: Revision[] = ['2025-11-25', '2026-07-28'];
  for (const revision of revisions) {
    rows.push(
      await measure(clients, `first result stdio ${revision}`, stdioTarget(revision), options.rounds),
    );
    options.log(`first result stdio ${revision}`);
  }
  const server = await startHttpServer(false);
  try {
    for (const revision of revisions) {
      rows.push(
        await measure(clients, `first result HTTP ${revision}`, server.target(revision), options.rounds),
      );
      options.log(`first result HTTP ${revision}`);
    }
  } finally {
    await server.stop();
  }
  return {
    id: 'first-result',
    title: 'Time to first result',
    description:
      'From `connect` (on stdio this includes spawning the server process) to the first `echo` result; median over rounds.',
    rows,
  };
}
