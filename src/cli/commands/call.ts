/**
 * `autos-mcp call <tool> [key=value…] <target>` and `call <tool> --help <target>`: the tool name checked
 * against the server's list, the arguments parsed, read and coerced by its inputSchema before anything is
 * sent, the result printed (binary content written to files).
 */

import { type Client, isMcpError, McpError, type Tool, type ToolCallOutcome } from '../client/index.js';
import type { PreparedResult } from '../content/index.js';
import { closestNames, FEW_TOOLS } from '../internal/tool-names.js';
import { type ParsedArgs, UsageError } from './args.js';
import { readArgumentSources } from './argument-sources.js';
import { ArgumentError, argumentSources, parseArgumentWords } from './argument-words.js';
import { resolveTarget, withServer } from './connection.js';
import { EXIT, usageError } from './exit.js';
import { formatError, formatResult } from './format.js';
import { HELP } from './help.js';
import type { CliIo } from './main.js';
import { progressBar } from './progress.js';
import type { SecretInput } from './settings/stdin.js';
import { coerceArguments } from './tool-arguments.js';
import { formatParameters, formatToolHelp, terminalSafe, unknownToolMessage } from './tool-help.js';

/** An unknown tool name, found in the server's list before anything was called. */
export class UnknownToolError extends UsageError {
  readonly tool: string;
  /** The closest names the server lists. */
  readonly suggestions: string[];
  /** Every name the server lists, when there are few (up to 20). */
  readonly tools: string[] | undefined;
  constructor(tool: string, names: readonly string[], listWith: string) {
    super(unknownToolMessage(tool, names, listWith));
    this.tool = tool;
    this.suggestions = closestNames(tool, names);
    this.tools = names.length <= FEW_TOOLS ? [...names] : undefined;
  }
}

/** How the target is named in a hint: the configured server's name, or `<target>`. */
function targetWord(parsed: ParsedArgs): string {
  return parsed.configuredName === undefined ? '<target>' : terminalSafe(parsed.configuredName.slice(0, 100));
}

/**
 * The tool `name` from the server's list, or an `UnknownToolError` with the closest names. A tool the
 * client left out (malformed) is returned as undefined: `callTool` then refuses it with the reason. A
 * server that cannot list its tools (a JSON-RPC error) is not checked.
 */
async function checkToolName(client: Client, name: string, listWith: string): Promise<Tool | undefined> {
  let list: Awaited<ReturnType<Client['listToolsDetailed']>>;
  try {
    list = await client.listToolsDetailed();
  } catch (error) {
    if (isMcpError(error) && error.kind === 'rpc') return undefined;
    throw error;
  }
  const tool = list.tools.find((t) => t.name === name);
  if (tool !== undefined || list.excluded.some((t) => t.name === name)) return tool;
  const names = list.tools.map((t) => t.name);
  throw new UnknownToolError(name, names, listWith);
}

/** `call <tool> --help <target>`: connects, lists, prints that tool's parameters; calls nothing. */
export async function toolHelpCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const target = await resolveTarget(parsed, io);
  const [name] = parsed.positionals;
  if (name === undefined) throw new UsageError('call --help needs a tool name');
  return withServer(target, io, async (client) => {
    const tool = await checkToolName(client, name, targetWord(parsed));
    if (tool === undefined) {
      const excluded = (await client.listToolsDetailed({ cache: true })).excluded.find(
        (t) => t.name === name,
      );
      throw new McpError(
        'invalid_tool',
        excluded === undefined
          ? `tool ${name} could not be looked up: the server did not list its tools`
          : `tool ${name} is left out: ${excluded.reason}`,
      );
    }
    const callAs = parsed.configuredName === undefined ? undefined : `${parsed.configuredName}.${tool.name}`;
    io.stdout.write(parsed.json ? `${JSON.stringify(tool)}\n` : formatToolHelp(tool, callAs));
    return EXIT.ok;
  });
}

export async function callCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const target = await resolveTarget(parsed, io);
  const [tool, ...words] = parsed.positionals;
  if (!tool) throw new UsageError('call needs a tool name');
  // The words' syntax, then their files and stdin, are checked before anything is started.
  const argumentWords = parseArgumentWords(words);
  if (argumentWords instanceof ArgumentError)
    return usageError(io, parsed.json, argumentWords.message, HELP['call'], {
      problems: argumentWords.problems,
    });
  const sources = await readArgumentSources(
    argumentSources(argumentWords),
    io.stdin ?? (process.stdin as unknown as SecretInput),
  );
  const unread = [...sources.values()].flatMap((read) => ('problem' in read ? [read.problem] : []));
  if (unread.length > 0)
    return usageError(io, parsed.json, unread.join('; '), undefined, { problems: unread });
  // The result is printed the moment it arrives; the server is closed after (a slow exit delays nothing).
  return withServer(target, io, async (client) => {
    const listed = await checkToolName(client, tool, targetWord(parsed));
    // Coerced by the listed inputSchema; before anything is sent, a mismatch is a usage error that lists
    // the tool's parameters. A tool the server did not list: values stay strings (key:=json for others).
    const args = coerceArguments(
      argumentWords,
      listed?.inputSchema,
      (path) => sources.get(path) ?? { problem: `${path} was not read` },
    );
    if (args instanceof ArgumentError) {
      const name = terminalSafe(tool.slice(0, 120));
      const message =
        args.problems.length === 1
          ? `invalid arguments for ${name}: ${args.message} (nothing was called)`
          : `invalid arguments for ${name} (nothing was called):\n  ${args.problems.join('\n  ')}`;
      const help = listed === undefined ? undefined : `Parameters of ${name}:\n${formatParameters(listed)}`;
      return usageError(io, parsed.json, message, help, { tool, problems: args.problems });
    }
    const bar = progressBar(io.stderr);
    let result: ToolCallOutcome;
    try {
      result = await client.callTool(tool, args, { onProgress: (p) => bar.update(p) });
    } finally {
      bar.done();
    }
    if (result.resultType === 'input_required') {
      io.stdout.write(parsed.json ? `${JSON.stringify(result)}\n` : formatResult(result));
      return EXIT.inputRequired;
    }
    const shown = await toFiles(result, io);
    io.stdout.write(parsed.json ? `${JSON.stringify(shown)}\n` : formatResult(shown));
    return result.isError ? EXIT.toolError : EXIT.ok;
  });
}

/**
 * The result with its binary content (images, audio, embedded blobs) written to files by
 * `autos-mcp/content`, loaded only when there is some. If the files cannot be written, a warning, and
 * the result as it came (its binary content is then summarised, never printed).
 */
async function toFiles(
  result: Exclude<ToolCallOutcome, { resultType: 'input_required' }>,
  io: CliIo,
): Promise<ToolCallOutcome | PreparedResult> {
  const binary = (result.content ?? []).some((block) => {
    if (block.type === 'image' || block.type === 'audio') return true;
    const resource = block['resource'];
    return (
      block.type === 'resource' &&
      typeof resource === 'object' &&
      resource !== null &&
      (resource as Record<string, unknown>)['blob'] !== undefined
    );
  });
  if (!binary) return result;
  try {
    const { prepare } = await import('../content/index.js');
    return await prepare(result);
  } catch (error) {
    io.stderr.write(`warning: the binary content was not written to files: ${formatError(error)}`);
    return result;
  }
}
