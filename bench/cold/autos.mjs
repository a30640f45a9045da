// Cold start of the library: a fresh process imports autos-mcp from dist/, connects (URL or command in
// argv[2..]), calls `echo` once, prints the result, closes and exits by itself.
const { connect } = await import(new URL('../../dist/index.js', import.meta.url).href);

const [first, ...rest] = process.argv.slice(2);
const target = /^https?:/.test(first ?? '') ? { url: first } : { command: first, args: rest };
const client = await connect({ ...target, protocolVersion: '2025-11-25' });
const result = await client.callTool('echo', { text: 'cold' });
process.stdout.write(`${JSON.stringify(result)}\n`);
await client.close();
