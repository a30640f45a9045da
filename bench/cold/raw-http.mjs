// Cold-start floor over HTTP: a fresh process that does one MCP exchange on node:http (keep-alive Agent),
// prints the result and exits by itself. Argument: the endpoint URL. Plain JS: no loader, nothing to compile.
import { Agent, request } from 'node:http';

const url = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function post(headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function result(reply) {
  const text = String(reply.headers['content-type']).startsWith('text/event-stream')
    ? reply.text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join('')
    : reply.text;
  return JSON.parse(text).result;
}

const init = await post(
  base,
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'cold-raw', version: '0' },
    },
  }),
);
result(init);
const headers = { ...base, 'mcp-protocol-version': '2025-11-25' };
const session = init.headers['mcp-session-id'];
if (typeof session === 'string') headers['mcp-session-id'] = session;
await post(headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
const call = await post(
  headers,
  JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'cold' } },
  }),
);
process.stdout.write(`${JSON.stringify(result(call))}\n`);
agent.destroy();
