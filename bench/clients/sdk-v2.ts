// The official SDK v2 client (@modelcontextprotocol/client). 2025-11-25 is its default ('legacy' negotiation);
// 2026-07-28 is chosen with `versionNegotiation: { mode: { pin: '2026-07-28' } }`, which sends server/discover at
// connect and then attaches the `_meta` envelope to every request (no probe-and-fallback, no sibling spawn).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { BenchClient } from './types.js';

/** Large-result runs need more than the SDK's 10 MiB default stdio line cap; set by the harness. */
export const SDK_STDIO_MAX_BUFFER = 256 * 1024 * 1024;

/** The SDK v2 client adapter. */
export const sdkV2: BenchClient = {
  name: 'sdk-v2',
  supports: () => true,
  async connect(target) {
    const client = new Client(
      { name: 'bench-sdk-v2', version: '0' },
      target.revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    const transport =
      target.transport === 'stdio'
        ? new StdioClientTransport({
            command: target.command,
            args: target.args,
            stderr: 'ignore',
            maxBufferSize: SDK_STDIO_MAX_BUFFER,
          })
        : new StreamableHTTPClientTransport(new URL(target.url));
    await client.connect(transport);
    return {
      call: (name, args) => client.callTool({ name, arguments: args }, { timeout: 120_000 }),
      close: () => client.close(),
    };
  },
};
