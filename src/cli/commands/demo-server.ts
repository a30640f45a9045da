/** `autos-mcp demo-server`: the bundled demo MCP server on stdio (the server itself is `../demo-server.ts`). */
import { defineCommand } from '../command.js';
import { EXIT } from '../exit.js';

export const demoServerCommand = defineCommand({
  name: 'demo-server',
  usage: [''],
  summary: `the bundled demo MCP server, on stdio (a target:
autos-mcp tools -- autos-mcp demo-server)`,
  about: `The demo MCP server shipped with autos-mcp, on stdio (one JSON-RPC message per line; revisions
2025-11-25 and 2026-07-28). Tools: echo, slow (progress), image (a PNG), confirm (asks through a
2026-07-28 input_required elicitation), typed (returns its arguments, to see their types), fail (an
isError result).
Start it as a target: autos-mcp call echo text=hi -- autos-mcp demo-server
(or, without installing: npx -y autos-mcp call echo text=hi -- npx -y autos-mcp demo-server).`,
  options: {},
  target: 'none',
  // stdout is the protocol channel: nothing else may be written there.
  json: false,
  words: false,
  async run(_args, io) {
    const { serveDemo } = await import('../demo-server.js');
    const stdin = io.stdin ?? process.stdin;
    // Started by hand on a terminal: say what it is (stderr; stdout is the protocol channel).
    if (stdin.isTTY)
      io.stderr.write(
        'autos-mcp demo server on stdio: it reads MCP messages (JSON-RPC, one per line) on stdin. Use it as a\ntarget: autos-mcp tools -- autos-mcp demo-server (Ctrl-D ends it)\n',
      );
    await serveDemo({ stdin, stdout: io.stdout });
    return EXIT.ok;
  },
});
