/**
 * `autos-mcp demo`: the main job, shown end to end against the bundled demo server — connect, list the
 * tools, call one, watch progress, receive an image, get a tool error back as a result, close.
 */
import { withClient } from '../../client/index.js';
import { defineCommand } from '../command.js';
import { formatResult } from '../format.js';
import type { CliIo } from '../io.js';
import { progressBar } from '../progress.js';
import { formatToolList } from '../tool-help.js';

export const demoCommand = defineCommand({
  name: 'demo',
  usage: [''],
  summary: 'run the main job against the bundled demo server',
  about: `Starts the bundled demo server (autos-mcp demo-server) and shows the main job: list tools, call one,
watch progress, get an image, and see a tool error returned as a result.`,
  options: {},
  target: 'none',
  words: false,
  run: (_args, io) => runDemo(io),
});

async function runDemo(io: CliIo): Promise<number> {
  // The demo server ships in the package (autos-mcp demo-server): its own module, run as a child process.
  const { demoServerCommand } = await import('../demo-server.js');
  const say = (text: string) => io.stdout.write(`${text}\n`);
  const config = demoServerCommand();
  say(`$ autos-mcp demo   # server: autos-mcp demo-server (bundled, no dependencies), over stdio\n`);
  const report = await withClient(config, async (client) => {
    say(
      `Connected: ${client.serverInfo?.name ?? 'server'} ${client.serverInfo?.version ?? ''}, protocol ${client.protocolVersion}`,
    );
    say(`Server instructions (data, not orders): ${client.instructions ?? '(none)'}\n`);
    say('1. The tools:');
    io.stdout.write(formatToolList(await client.listTools(), []));
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
