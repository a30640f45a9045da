// One call returning a large text result (8 MiB, 64 MiB) at 2025-11-25, so every client can take part.
// Size caps are raised for every client (see the section description); a client slower than the cap of this
// group is reported as failed, so one quadratic reader cannot stall the whole run.
import type { BenchClient, BenchConnection, Target } from '../clients/types.js';
import type { Row, Section } from '../model.js';
import { median } from '../stats.js';
import { startHttpServer, stdioTarget } from '../targets.js';
import { cells, interleave } from './interleave.js';

const MiB = 1024 * 1024;

/** Rejects after `ms` (unref'd timer). */
function giveUp(ms: number): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error(`gave up after ${ms / 1000} s`)), ms).unref();
  });
}

async function measure(
  clients: readonly BenchClient[],
  label: string,
  target: Target,
  bytes: number,
  rounds: number,
  capMs: number,
): Promise<Row> {
  const active = clients.filter((c) => c.supports(target));
  const conns = new Map<string, BenchConnection>();
  try {
    for (const c of active) {
      const conn = await c.connect(target);
      conns.set(c.name, conn);
      await conn.call('blob', { bytes: 1024 }); // warm the call path; stdio servers prebuild the payload (--warm)
    }
    // The HTTP server is shared: one untimed full-size call by the floor client builds its payload cache.
    if (target.transport === 'http') await conns.get('raw')?.call('blob', { bytes });
    const failed = new Map<string, string>();
    const samples = await interleave(
      active.map((c) => c.name),
      rounds,
      async (name) => {
        if (failed.has(name)) return [Number.NaN];
        const conn = conns.get(name);
        if (conn === undefined) throw new Error(`large: no open connection for ${name}`);
        try {
          const t0 = process.hrtime.bigint();
          const call = conn.call('blob', { bytes });
          call.catch(() => undefined); // after a give-up the late outcome is ignored
          const result = (await Promise.race([call, giveUp(capMs)])) as { content?: { text?: string }[] };
          const elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
          const got = result.content?.[0]?.text?.length;
          if (got !== bytes) throw new Error(`want ${bytes} bytes of text, got ${got}`);
          return [elapsed];
        } catch (error) {
          failed.set(name, (error as Error).message.slice(0, 120));
          // Close at once: a client still reading in the background would steal the event loop from the
          // next client's timed call (the harness process hosts every client).
          await conn.close().catch(() => {});
          conns.delete(name);
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

/** Runs the large-result group; `sizes` in MiB with rounds each, `capMs` the per-call give-up time. */
export async function runLarge(
  clients: readonly BenchClient[],
  options: {
    sizes: { mib: number; rounds: number; http: boolean }[];
    capMs: number;
    log: (line: string) => void;
  },
): Promise<Section> {
  const rows: Row[] = [];
  const revision = '2025-11-25';
  for (const { mib, rounds } of options.sizes) {
    const target = stdioTarget(revision, mib * MiB);
    rows.push(await measure(clients, `${mib} MiB result stdio`, target, mib * MiB, rounds, options.capMs));
    options.log(`large ${mib} MiB stdio`);
  }
  const server = await startHttpServer(false);
  try {
    for (const { mib, rounds, http } of options.sizes) {
      if (!http) continue;
      const target = server.target(revision);
      rows.push(
        await measure(clients, `${mib} MiB result HTTP JSON`, target, mib * MiB, rounds, options.capMs),
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
      'One `blob` call returning a text block of the given size, at 2025-11-25; median over rounds. Caps are ' +
      'raised for every client: SDK `maxBufferSize` 256 MiB (default 10 MiB rejects a 64 MiB line), autos-mcp ' +
      `\`maxMessageBytes\` 256 MiB (default 16 MiB). A call slower than ${options.capMs / 1000} s is reported as failed.`,
    rows,
  };
}
