// The previous official SDK (@modelcontextprotocol/sdk v1). It speaks 2025-11-25 only, so 2026 targets are skipped.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SDK_STDIO_MAX_BUFFER } from './sdk-v2.js';
import type { BenchClient } from './types.js';

/** The SDK v1 client adapter. */
export const sdkV1: BenchClient = {
  name: 'sdk-v1',
  supports: (target) => target.revision === '2025-11-25',
  async connect(target) {
    const client = new Client({ name: 'bench-sdk-v1', version: '0' });
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
      call: (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }),
      close: () => client.close(),
    };
  },
};
