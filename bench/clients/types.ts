// The shape every benchmarked client adapter has, and the targets they connect to. Adapters are thin: they
// map `call(name, args)` onto the library's own call path so the harness measures only the library.

/** A protocol revision the bench exercises. */
export type Revision = '2025-11-25' | '2026-07-28';

/** Where a client connects: a stdio command it spawns, or a Streamable HTTP endpoint already listening. */
export type Target =
  | { transport: 'stdio'; revision: Revision; command: string; args: string[] }
  | { transport: 'http'; revision: Revision; url: string };

/** A connected client: `call` returns the tool result object; `close` ends the connection (and child). */
export interface BenchConnection {
  call(name: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/** A benchmarked client library. `supports` says whether it can reach a target at all (e.g. SDK v1 is 2025-only). */
export interface BenchClient {
  readonly name: string;
  supports(target: Target): boolean;
  connect(target: Target): Promise<BenchConnection>;
}

/** The `_meta` every 2026-07-28 request carries (S26/basic/index). */
export function modernMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '0' },
  };
}

/** The `initialize` params of the 2025-11-25 handshake (S25/basic/lifecycle). */
export const INITIALIZE_PARAMS = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'bench-raw', version: '0' },
};
