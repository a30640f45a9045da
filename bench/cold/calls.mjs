// Per-call latency of the library in a fresh process of any runtime: bench/groups/runtimes.ts runs it under
// Node, Bun and Deno (it sits with the cold-start programs as the other standalone program the harness
// spawns). Imports autos-mcp from dist/, connects once (URL or command in argv[4..]), makes `warmup`, then
// `calls` sequential `echo` calls, prints each call's time in ms as one JSON array, closes and exits.
// argv: <calls> <warmup> <url | command args…>
import process from 'node:process';

const { connect } = await import(new URL('../../dist/index.js', import.meta.url).href);

const [calls, warmup, first, ...rest] = process.argv.slice(2);
const target = /^https?:/.test(first ?? '') ? { url: first } : { command: first, args: rest };
const client = await connect({ ...target, protocolVersion: '2025-11-25' });
const args = { text: 'hello' };
for (let i = 0; i < Number(warmup); i++) await client.callTool('echo', args);
const times = [];
for (let i = 0; i < Number(calls); i++) {
  const t0 = performance.now();
  await client.callTool('echo', args);
  times.push(performance.now() - t0);
}
await client.close();
process.stdout.write(`${JSON.stringify(times)}\n`);
