// autos-mcp, loaded from the built `dist/index.js` so the bench measures what ships. The module is imported by
// URL at run time, so the harness type-checks and runs (skipping this client) before `npm run build` succeeds.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchClient, Target } from './types.js';

/** The built entry point this adapter loads. */
export const AUTOS_DIST = new URL('../../dist/index.js', import.meta.url);

/** The slice of autos-mcp's public API the bench uses (see the Benchmarks issue). */
interface AutosModule {
  connect(
    options:
      | { command: string; args: string[]; protocolVersion: string }
      | { url: string; protocolVersion: string },
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

/** The autos-mcp client adapter. */
export const autos: BenchClient = {
  name: 'autos-mcp',
  supports: () => autosAvailable(),
  async connect(target: Target) {
    loaded ??= import(AUTOS_DIST.href) as Promise<AutosModule>;
    const { connect } = await loaded;
    const client = await connect(
      target.transport === 'stdio'
        ? { command: target.command, args: target.args, protocolVersion: target.revision }
        : { url: target.url, protocolVersion: target.revision },
    );
    return { call: (name, args) => client.callTool(name, args), close: () => client.close() };
  },
};
