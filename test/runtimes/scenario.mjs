// The runtime suite's program: copied into a consumer project that installed the packed package, and run
// there by Node, Bun or Deno (suite.ts). It uses autos-mcp as a user does (`import … from 'autos-mcp'`),
// reports what it observed as one JSON object on stdout ({ check: value }), and asserts nothing itself:
// suite.ts compares the same report from every runtime with what it wants. A failed check is reported
// as `{ error: { name, kind, delivery, message, stderrTail } }`, never thrown.
// argv[2]: JSON { mode: 'main' | 'worker' | 'keyring', node, fixtures, bin, sseUrl, jsonUrl, dir }.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { callToolOnce, connect } from 'autos-mcp';
import { openSettings } from 'autos-mcp/settings';

const input = JSON.parse(process.argv[process.argv.length - 1] ?? '{}');
const report = {};

/** Runs one check; its value or its error goes into the report under `name`. */
async function check(name, work) {
  try {
    report[name] = await work();
  } catch (error) {
    report[name] = {
      error: {
        name: error?.name,
        kind: error?.kind,
        delivery: error?.delivery,
        message: String(error?.message ?? error),
        stderrTail: error?.stderrTail,
      },
    };
  }
}

const text = (result) =>
  (result.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('');
const demo = { command: input.node, args: [input.bin, 'demo-server'] };
const fixture = (file, args = []) => ({ command: input.node, args: [join(input.fixtures, file), ...args] });

/** The state letter of a process from /proc (Linux), or null when there is none. */
function state(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}
const alive = (pid) => {
  const s = state(pid);
  return s !== null && s !== 'Z';
};

async function main() {
  await check('oneShot', async () => text(await callToolOnce(demo, 'echo', { text: 'hello' })));

  await check('tree', async () => {
    let announced;
    const ready = new Promise((resolve) => {
      announced = resolve;
    });
    const client = await connect(fixture('grandchildren.mjs'), { onLog: () => announced() });
    await ready;
    const pids = Object.values(JSON.parse(text(await client.callTool('pids'))));
    const before = pids.map(alive);
    const closed = await client.close();
    return {
      count: pids.length,
      before,
      after: pids.map(alive),
      activeProcesses: closed.process?.activeProcesses,
    };
  });

  await check('stderrTail', () => connect(fixture('exit-at-start.mjs')));

  await check('timeout', async () => {
    const client = await connect(fixture('slow-echo.mjs'));
    try {
      const late = await client
        .callTool('echo', { text: 'first', delayMs: 600 }, { timeoutMs: 100 })
        .then(() => ({ resolved: true }))
        .catch((error) => ({ kind: error.kind, delivery: error.delivery }));
      // The first answer arrives while this call waits: it must be dropped, never given to this call.
      const next = text(await client.callTool('echo', { text: 'second', delayMs: 800 }));
      return { late, next };
    } finally {
      await client.close();
    }
  });

  await check('cancel', async () => {
    const client = await connect(fixture('slow-echo.mjs'));
    try {
      const controller = new AbortController();
      const call = client.callTool('echo', { text: 'x', delayMs: 5000 }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      return await call.then(
        () => ({ resolved: true }),
        (error) => ({ kind: error.kind, delivery: error.delivery }),
      );
    } finally {
      await client.close();
    }
  });

  for (const [framing, url] of [
    ['sse', input.sseUrl],
    ['json', input.jsonUrl],
  ]) {
    for (const protocolVersion of ['2025-11-25', '2026-07-28', 'auto']) {
      await check(`http ${framing} ${protocolVersion}`, async () => {
        const client = await connect({ url, protocolVersion });
        try {
          const tools = (await client.listTools()).map((t) => t.name).sort();
          const echo = text(await client.callTool('echo', { text: `hi ${framing}` }));
          let progress = 0;
          await client.callTool('slow', { steps: 2, delayMs: 10 }, { onProgress: () => progress++ });
          return { negotiated: client.protocolVersion, tools, echo, progress };
        } finally {
          await client.close();
        }
      });
    }
  }

  await check('http cancel', async () => {
    const client = await connect({ url: input.sseUrl });
    try {
      const controller = new AbortController();
      const call = client.callTool('slow', { steps: 50, delayMs: 100 }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      return await call.then(
        () => ({ resolved: true }),
        (error) => ({ kind: error.kind, delivery: error.delivery }),
      );
    } finally {
      await client.close();
    }
  });

  // useEnvProxy (with no proxy variable set) takes the undici path, as a proxy or a custom CA does.
  await check('http undici', async () =>
    text(await callToolOnce({ url: input.jsonUrl, useEnvProxy: true }, 'echo', { text: 'via undici' })),
  );

  await check('settings plaintext-file', async () => {
    const settings = openSettings({ backend: 'plaintext-file', dir: input.dir });
    await settings.save('demo', { env: { GREETING: 'saved' } });
    const names = await settings.list();
    const loaded = await settings.load('demo');
    const files = readdirSync(input.dir, { recursive: true }).filter((f) => String(f).endsWith('.json'));
    const modes = files.map((f) => (statSync(join(input.dir, String(f))).mode & 0o777).toString(8));
    const removed = await settings.remove('demo');
    return { names, loaded, modes, removed, after: await settings.list() };
  });

  // autos-mcp/code: the QuickJS sandbox (its .wasm found from the installed package) calling a real server.
  await check('code', async () => {
    const { runCode } = await import('autos-mcp/code');
    const client = await connect(demo);
    try {
      const catalog = {
        search: async () => [],
        describe: async () => ({}),
        call: (ref, args, options) => client.callTool(ref.slice(ref.indexOf('.') + 1), args, options),
      };
      const ran = await runCode(
        "const r: any = await servers.demo.echo({ text: 'sandboxed' }); return r.content[0].text",
        { catalog },
      );
      const fenced = await runCode(
        'return [typeof process, typeof require, typeof Deno, typeof Bun, typeof fetch].join()',
        { catalog },
      );
      const loop = await runCode('while (true) {}', { catalog, timeoutMs: 200 });
      return {
        value: ran.value,
        calls: ran.calls.map((c) => c.delivery),
        fenced: fenced.value,
        loop: loop.error?.kind,
      };
    } finally {
      await client.close();
    }
  });

  // The runner points DBUS_SESSION_BUS_ADDRESS at nothing: the OS store must fail in one clear sentence.
  await check('keyring unavailable', () => openSettings({ timeoutMs: 10_000 }).list());
}

/** The worker apart, so that its thread's stderr is told apart from the main run's. */
async function inWorker() {
  await check('worker', async () => {
    const worker = await import('autos-mcp/worker');
    const id = await worker.open(demo);
    const echo = text(await worker.callTool(id, 'echo', { text: 'from the worker' }));
    const final = await worker.close(id);
    return { echo, state: final.state, activeProcesses: final.cleanup?.activeProcesses };
  });
}

/** Inside a private D-Bus session with an unlocked gnome-keyring (suite.ts starts it). */
async function keyring() {
  await check('keyring', async () => {
    const settings = openSettings({ timeoutMs: 10_000 });
    await settings.save('runtime-suite', { env: { TOKEN: 'kept-in-the-keyring' } });
    const names = await settings.list();
    const loaded = await settings.load('runtime-suite');
    const removed = await settings.remove('runtime-suite');
    return { names, loaded, removed };
  });
}

await { main, worker: inWorker, keyring }[input.mode]();
process.stdout.write(`${JSON.stringify(report)}\n`);
