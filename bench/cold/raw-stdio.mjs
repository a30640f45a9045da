// Cold-start floor over stdio: spawns the server (argv[2..]), initialize + one tools/call over line JSON,
// prints the result, ends the server's stdin and exits once it has exited. Plain JS: no loader.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command ?? '', args, { stdio: ['pipe', 'pipe', 'ignore'] });
const waiting = new Map();
createInterface({ input: child.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  waiting.get(message.id)?.(message.result);
  waiting.delete(message.id);
});
let nextId = 0;
const request = (method, params) =>
  new Promise((resolve) => {
    const id = ++nextId;
    waiting.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });

await request('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'cold-raw', version: '0' },
});
child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
const result = await request('tools/call', { name: 'echo', arguments: { text: 'cold' } });
process.stdout.write(`${JSON.stringify(result)}\n`);
child.stdin.end();
