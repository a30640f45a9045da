// Cold start of the official SDK v2 (@modelcontextprotocol/client): the same exchange as autos.mjs.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [first, ...rest] = process.argv.slice(2);
const transport = /^https?:/.test(first ?? '')
  ? new StreamableHTTPClientTransport(new URL(first ?? ''))
  : new StdioClientTransport({ command: first ?? '', args: rest, stderr: 'ignore' });
const client = new Client({ name: 'cold-sdk-v2', version: '0' });
await client.connect(transport);
const result = await client.callTool({ name: 'echo', arguments: { text: 'cold' } });
process.stdout.write(`${JSON.stringify(result)}\n`);
await client.close();
