// autos-mcp, loaded from the built `dist/index.js` so the bench measures what ships. The module is imported by
// URL at run time, so the harness type-checks and runs (skipping this client) before `npm run build` succeeds.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { SDK_STDIO_MAX_BUFFER as LARGE_MESSAGE_BYTES } from './sdk-v2.js';
import type { BenchClient, BenchConnection, Target } from './types.js';

/** The built entry point this adapter loads. */
export const AUTOS_DIST = new URL('../../dist/index.js', import.meta.url);

/** The slice of autos-mcp's public API the bench uses (see the Benchmarks issue). */
interface AutosModule {
  connect(
    options:
      | {
          command: string;
          args: string[];
          protocolVersion: string;
          maxMessageBytes: number;
          timeoutMs: number;
        }
      | { url: string; protocolVersion: string; maxMessageBytes: number; timeoutMs: number },
    extras?: { dispatcher?: unknown },
  ): Promise<{
    callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
    close(): Promise<void>;
  }>;
}

let loaded: Promise<AutosModule> | undefined;

/** Whether the built library is present (the harness skips this client otherwise). */
export function autosAvailable(): boolean {
  return existsSync(fileURLToPath(AUTOS_DIST));
}

/** The autos-mcp client adapter (its default request path: node:http over HTTP). */
export const autos: BenchClient = {
  name: 'autos-mcp',
  supports: () => autosAvailable(),
  connect: (target) => connectAutos(target),
};

/**
 * autos-mcp handed an undici `Pool` as its dispatcher (`connect(config, { dispatcher })`, docs/http.md): the
 * request path a caller can choose for a long-lived connection making many calls, measured beside the
 * default so the trade-off (per call here, cold start there) is read from one run. HTTP only.
 */
export const autosUndici: BenchClient = {
  name: 'autos-undici',
  supports: (target) => autosAvailable() && target.transport === 'http',
  async connect(target) {
    if (target.transport !== 'http') throw new Error('autos-undici only connects to HTTP targets');
    const pool = new Pool(new URL(target.url).origin, { connections: 16 });
    const conn = await connectAutos(target, pool);
    return {
      call: conn.call,
      async close() {
        await conn.close();
        await pool.destroy();
      },
    };
  },
};

async function connectAutos(target: Target, dispatcher?: Pool): Promise<BenchConnection> {
  loaded ??= import(AUTOS_DIST.href) as Promise<AutosModule>;
  const { connect } = await loaded;
  // Same raised message cap and call timeout as the SDK adapters, so large-result runs compare like for like.
  const common = {
    protocolVersion: target.revision,
    maxMessageBytes: LARGE_MESSAGE_BYTES,
    timeoutMs: 120_000,
  };
  const client = await connect(
    target.transport === 'stdio'
      ? { command: target.command, args: target.args, ...common }
      : { url: target.url, ...common },
    dispatcher === undefined ? {} : { dispatcher },
  );
  return {
    call: (name: string, args: Record<string, unknown>) => client.callTool(name, args),
    close: () => client.close(),
  };
}
