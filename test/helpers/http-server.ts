/** Small pieces of the tests' own HTTP servers: listening on a free local port, reading a request body. */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

/**
 * Listens on 127.0.0.1, port 0 (a free one), and resolves with the MCP endpoint URL on it:
 * `<scheme>://127.0.0.1:<port>/mcp`. Any `net.Server` will do (http, https, a plain TCP server).
 */
export async function listenLocal(server: Server, scheme: 'http' | 'https' = 'http'): Promise<URL> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new URL(`${scheme}://127.0.0.1:${port}/mcp`);
}

/** Reads a request body to its end, as UTF-8 text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
