/**
 * `autos-mcp pin NAME [TOOL…]`: approves a configured server's tool definitions as they are now (by
 * digest, in pinned-tools.json); a later call of a pinned tool whose definition changed is refused.
 */
import type { ToolPinObject } from '../../config/tool-policy.js';
import { type Args, defineCommand } from '../command.js';
import { configuredTarget, safe, shownPath } from '../configured-target.js';
import { withServer } from '../connection.js';
import type { CliIo } from '../io.js';
import { CONFIGURED_OPTIONS, CONNECTION_OPTIONS } from '../options.js';
import type { TargetLine } from '../target.js';
import { UsageError } from '../usage-error.js';

const PIN_OPTIONS = { ...CONNECTION_OPTIONS, ...CONFIGURED_OPTIONS } as const;

export const pinCommand = defineCommand({
  name: 'pin',
  usage: ['NAME [TOOL…] [options]'],
  synopsis: '<name> [<tool>…]',
  summary: "approve a configured server's tool definitions as they are now",
  about: `Lists the configured server NAME's tools and stores the current definition of each (or of the TOOLs
named) as approved, by digest, in pinned-tools.json in autos-mcp's config directory. From then on a
pinned tool whose name, title, description, schemas or annotations changed is refused before it is
called (tool_changed, nothing sent), and autos-mcp tools NAME marks it. Run pin again to approve a change.`,
  options: PIN_OPTIONS,
  target: 'none',
  run: pin,
});

const URL_LIKE = /^https?:\/\//i;

/**
 * `autos-mcp pin NAME [TOOL…]`: lists the configured server's tools without the stored pins and stores
 * the current definition of each (or of the tools named) as approved. A later call of a pinned tool whose
 * definition changed is refused (`tool_changed`), and `tools NAME` marks it.
 */
async function pin(args: Args<typeof PIN_OPTIONS>, io: CliIo): Promise<number> {
  const parsed: TargetLine = { ...args, positionals: [...args.positionals] };
  const name = parsed.positionals[0];
  if (name === undefined)
    throw new UsageError('pin needs a configured server name (autos-mcp servers lists them)');
  if (URL_LIKE.test(name))
    throw new UsageError(
      'pin takes a configured server name, not a URL or a -- command: pins are stored by name',
    );
  const config = await configuredTarget(parsed, { withPins: false });
  if (config === undefined)
    throw new UsageError('pin needs a configured server name (autos-mcp servers lists them)');
  const only = parsed.positionals.slice(0);
  const current = await withServer(
    { config },
    io,
    async (client) => (await client.listToolsDetailed()).digests,
  );
  const chosen: Record<string, ToolPinObject> = {};
  for (const tool of only.length === 0 ? Object.keys(current) : only) {
    const digest = Object.hasOwn(current, tool) ? current[tool] : undefined;
    if (digest === undefined)
      throw new UsageError(`${safe(name)} lists no tool ${JSON.stringify(safe(tool, 100))} to pin`);
    Object.defineProperty(chosen, tool, {
      value: digest,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const { savePins } = await import('../../servers/index.js');
  const saved = await savePins(name, chosen);
  const count = Object.keys(chosen).length;
  io.stdout.write(
    args.json
      ? `${JSON.stringify({ server: name, pinned: chosen, file: saved.file })}\n`
      : `pinned ${count} tool${count === 1 ? '' : 's'} of ${safe(name)} in ${shownPath(saved.file)}\n`,
  );
  return 0;
}
