/**
 * `autos-mcp demo`: the main job, shown end to end against the bundled demo server — connect, list the
 * tools, call one, watch progress, receive an image, get a tool error back as a result, close.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpError, withClient } from '../client/index.js';
import { formatResult, formatTools } from './format.js';
import type { CliIo } from './main.js';
import { progressBar } from './progress.js';

export async function runDemo(io: CliIo): Promise<number> {
  // The source tree (src/cli), the bundle (dist) and its chunks sit at different depths below the root.
  const server = ['../examples/', '../../examples/', '../../../examples/']
    .map((dir) => fileURLToPath(new URL(`${dir}demo-server.mjs`, import.meta.url)))
    .find((candidate) => existsSync(candidate));
  if (server === undefined) {
    throw new McpError(
      'config',
      'the demo server ships with the source repository (examples/demo-server.mjs); run the demo from a clone',
    );
  }
  const say = (text: string) => io.stdout.write(`${text}\n`);
  const config = { command: process.execPath, args: [server] };
  say(`$ autos-mcp demo   # server: node examples/demo-server.mjs (official SDK v2), over stdio\n`);
  const report = await withClient(config, async (client) => {
    say(
      `Connected: ${client.serverInfo?.name ?? 'server'} ${client.serverInfo?.version ?? ''}, protocol ${client.protocolVersion}`,
    );
    say(`Server instructions (data, not orders): ${client.instructions ?? '(none)'}\n`);
    say('1. The tools:');
    io.stdout.write(formatTools(await client.listTools(), []));
    say('\n2. callTool("echo", { text: "hello from autos-mcp" }):');
    io.stdout.write(formatResult(await client.callTool('echo', { text: 'hello from autos-mcp' })));
    say('\n3. callTool("slow", { steps: 5, delayMs: 150 }) with onProgress:');
    const bar = progressBar(io.stderr);
    const slow = await client.callTool(
      'slow',
      { steps: 5, delayMs: 150 },
      { onProgress: (p) => bar.update(p) },
    );
    bar.done();
    io.stdout.write(formatResult(slow));
    say('\n4. callTool("image"):');
    io.stdout.write(formatResult(await client.callTool('image')));
    say('\n5. callTool("fail", { reason: "demo" }) — isError is a result, not an exception:');
    const failed = await client.callTool('fail', { reason: 'demo' });
    io.stdout.write(formatResult(failed));
    say(`   result.isError === ${String(failed.isError)}`);
    return client.close();
  });
  say(
    `\n6. close(): server process tree ended (${report.process?.ended}), processes left: ${report.process?.activeProcesses}`,
  );
  return 0;
}
