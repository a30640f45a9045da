/**
 * The host of the hostile-schema test, run as a child (`node --import tsx hostile-schemas-host.ts
 * <tool>…`) so that a check that never ends cannot hang the test runner: it connects to the
 * hostile-schemas fixture over stdio and calls each named tool with `validateArguments`, printing a line
 * `start <tool>` before each call and a JSON line after it: its outcome, the host's CPU and wall time, and whether the server received the call (asked with another call).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, isMcpError } from '../../src/index.js';
import { HOSTILE } from '../fixtures/lib/hostile-schemas.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const client = await connect(
  { command: process.execPath, args: [path.join(here, '../fixtures/hostile-schemas.mjs')] },
  { validateArguments: true },
);
// Warm up: list the tools, load the validator.
await client.callTool('echo', { text: 'warm' });
for (const name of process.argv.slice(2)) {
  const args = HOSTILE[name]?.[1] ?? {};
  process.stdout.write(`start ${name}\n`);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  let outcome: Record<string, unknown>;
  try {
    const result = await client.callTool(name, args);
    outcome = { outcome: 'sent', text: result.content[0]?.type === 'text' ? result.content[0].text : '' };
  } catch (error) {
    outcome = isMcpError(error)
      ? { outcome: error.kind, delivery: error.delivery, message: error.message }
      : { outcome: 'error', message: String(error) };
  }
  const used = process.cpuUsage(cpu);
  const received = await client.callTool('received', {});
  const names = JSON.parse(
    received.content[0]?.type === 'text' ? received.content[0].text : '[]',
  ) as string[];
  const line = {
    tool: name,
    ...outcome,
    received: names.includes(name),
    cpuMs: (used.user + used.system) / 1000,
    wallMs: performance.now() - wall,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
await client.close();
