/**
 * `autos-mcp call <tool> [key=value…] <target>` and `call <tool> --help <target>`: the tool name checked
 * against the server's list, the arguments parsed, read and coerced by its inputSchema before anything is
 * sent, the result printed (binary content written to files).
 */

import {
  type Client,
  type ConnectOptions,
  isMcpError,
  McpError,
  type Tool,
  type ToolCallOutcome,
} from '../../client/index.js';
import type { PreparedResult } from '../../content/index.js';
import { closestNames, FEW_TOOLS } from '../../internal/tool-names.js';
import { terminalApprover } from '../approval-prompt.js';
import { readArgumentSources } from '../argument-sources.js';
import { ArgumentError, argumentSources, parseArgumentWords } from '../argument-words.js';
import { type Args, defineCommand } from '../command.js';
import { resolveTarget, withServer } from '../connection.js';
import { EXIT } from '../exit.js';
import { formatError, formatResult } from '../format.js';
import { TARGET_HELP } from '../help.js';
import type { CliIo } from '../io.js';
import { MAX_CHARS, TARGET_OPTIONS } from '../options.js';
import { progressBar } from '../progress.js';
import { coerceArguments } from '../tool-arguments.js';
import { formatParameters, formatToolHelp, terminalSafe, unknownToolMessage } from '../tool-help.js';
import { UsageError } from '../usage-error.js';

const CALL_OPTIONS = {
  maxChars: MAX_CHARS,
  ...TARGET_OPTIONS,
} as const;

type CallArgs = Args<typeof CALL_OPTIONS>;

export const callCommand = defineCommand({
  name: 'call',
  usage: [
    '[options] <tool> [key=value…] <target>',
    "<tool> --help <target>       that tool's parameters (nothing is called)",
  ],
  synopsis: '[options] <tool> [key=value…] <target>',
  summary: 'call one tool',
  about: `Calls one tool. Arguments, coerced by the tool's inputSchema (a string stays a string):
  key=value        the value as the schema types it: string, integer, number, boolean, enum, or
                   JSON for an array or object (tags='["a","b"]')
  key:=<json>      the value as JSON, whatever the schema says (count:=5, id:='"0012"')
  key=@<file>      the file's text (key=@- reads stdin); key:=@<file> parses it as JSON
  '{"k":"v"}'      a JSON object of arguments; - reads it from stdin
An unknown key, a missing required one or a value of the wrong type is exit code 2 before anything
is sent, with the tool's parameters. Progress is shown on stderr. The tool name is checked against
the server's list first: an unknown name is exit code 2, with the server's tool names (up to 20;
else the closest).
A URL target comes first or last: autos-mcp call https://host/mcp echo text=hi
${TARGET_HELP}
Images, audio and embedded blobs are written to files (a fresh private directory under the temp
directory, left for you) and shown as one line each: image/png 1234 bytes → /tmp/…/ab12….png; with
--json, the result carries path, mimeType, bytes and sha256 instead of the base64 data.
--max-chars N cuts a larger result to N characters of JSON, ending with a line that names a private
file holding it whole (with --json, the result carries truncated: { originalChars, file }).
A tool the server's config lists in tools.approve is called only after y on the terminal (stdin and
stderr both terminals); otherwise it is refused and nothing is sent: exit code 5.
Example: autos-mcp call echo text=hi -- autos-mcp demo-server
Exit code 1 means the tool ran and reported an error (isError); 3 means the call failed.`,
  options: CALL_OPTIONS,
  target: 'server',
  // `call <tool> --help <target>`: that tool's parameters, from the server.
  helpRuns: (args) => args.positionals.length > 0 && hasTarget(args),
  run: (args, io) => (args.help ? toolHelp(args, io) : call(args, io)),
});

/** Whether a target was given: a `--` command, a URL among the words, `--settings`, or `NAME.TOOL`. */
function hasTarget(args: CallArgs): boolean {
  return (
    args.serverCommand !== undefined ||
    args.settingsName !== undefined ||
    args.positionals.some((word) => /^https?:\/\//i.test(word)) ||
    // `call NAME.TOOL --help`: a configured server (looked up when the target is resolved).
    (args.positionals[0] ?? '').includes('.')
  );
}

/**
 * An unknown tool name, found in the server's list before anything was called: a usage error whose
 * `--json` document also has `tool`, the closest names (`suggestions`) and, when there are few (up to
 * 20), every name the server lists (`tools`).
 */
function unknownTool(tool: string, names: readonly string[], listWith: string): UsageError {
  const tools = names.length <= FEW_TOOLS ? { tools: [...names] } : {};
  return new UsageError(unknownToolMessage(tool, names, listWith), {
    details: { tool, suggestions: closestNames(tool, names), ...tools },
    help: false,
  });
}

/** How the target is named in a hint: the configured server's name, or `<target>`. */
function targetWord(configuredName: string | undefined): string {
  return configuredName === undefined ? '<target>' : terminalSafe(configuredName.slice(0, 100));
}

/**
 * The tool `name` from the server's list, or a usage error with the closest names. A tool the
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
  // An app-only tool (MCP Apps) is kept from models, not from a person or code calling it by name.
  const tool = list.tools.find((t) => t.name === name) ?? list.appOnly.find((t) => t.name === name);
  if (tool !== undefined || list.excluded.some((t) => t.name === name)) return tool;
  const names = list.tools.map((t) => t.name);
  throw unknownTool(name, names, listWith);
}

/** `call <tool> --help <target>`: connects, lists, prints that tool's parameters; calls nothing. */
async function toolHelp(parsed: CallArgs, io: CliIo): Promise<number> {
  const target = await resolveTarget(parsed, io);
  const [name] = target.words;
  if (name === undefined) throw new UsageError('call --help needs a tool name');
  return withServer(target, io, async (client) => {
    const tool = await checkToolName(client, name, targetWord(target.configuredName));
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
    const callAs = target.configuredName === undefined ? undefined : `${target.configuredName}.${tool.name}`;
    io.stdout.write(parsed.json ? `${JSON.stringify(tool)}\n` : formatToolHelp(tool, callAs));
    return EXIT.ok;
  });
}

async function call(parsed: CallArgs, io: CliIo): Promise<number> {
  const target = await resolveTarget(parsed, io);
  const [tool, ...words] = target.words;
  if (!tool) throw new UsageError('call needs a tool name');
  // The words' syntax, then their files and stdin, are checked before anything is started.
  const argumentWords = parseArgumentWords(words);
  if (argumentWords instanceof ArgumentError)
    throw new UsageError(argumentWords.message, { details: { problems: argumentWords.problems } });
  const sources = await readArgumentSources(argumentSources(argumentWords), io.stdin ?? process.stdin);
  const unread = [...sources.values()].flatMap((read) => ('problem' in read ? [read.problem] : []));
  if (unread.length > 0)
    throw new UsageError(unread.join('; '), { details: { problems: unread }, help: false });
  // The result is printed the moment it arrives; the server is closed after (a slow exit delays nothing).
  return withServer(
    target,
    io,
    async (client) => {
      const listed = await checkToolName(client, tool, targetWord(target.configuredName));
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
        const help = listed === undefined ? false : `Parameters of ${name}:\n${formatParameters(listed)}`;
        throw new UsageError(message, { details: { tool, problems: args.problems }, help });
      }
      const bar = progressBar(io.stderr);
      let result: ToolCallOutcome;
      let task: { taskId: string; status: string } | undefined;
      try {
        result = await client.callTool(tool, args, {
          onProgress: (p) => bar.update(p),
          // With --extension io.modelcontextprotocol/tasks: each status on stderr, the id in --json.
          onTask: (update) => {
            task = { taskId: update.taskId, status: update.status };
            io.stderr.write(`task ${terminalSafe(update.taskId.slice(0, 200))}: ${update.status}\n`);
          },
          ...(parsed.maxChars === undefined ? {} : { maxResultChars: parsed.maxChars }),
        });
      } finally {
        bar.done();
      }
      if (result.resultType === 'input_required') {
        io.stdout.write(parsed.json ? `${JSON.stringify(result)}\n` : formatResult(result));
        return EXIT.inputRequired;
      }
      const shown = await toFiles(result, io);
      const document = task === undefined ? shown : { ...shown, task };
      io.stdout.write(parsed.json ? `${JSON.stringify(document)}\n` : formatResult(shown));
      return result.isError ? EXIT.toolError : EXIT.ok;
    },
    approval(io),
  );
}

/** The connect options of `call`: the terminal prompt for tools that need approval, when there is one. */
function approval(io: CliIo): ConnectOptions {
  const onApprove = terminalApprover(io);
  return onApprove === undefined ? {} : { onApprove };
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
    const { prepare } = await import('../../content/index.js');
    return await prepare(result);
  } catch (error) {
    io.stderr.write(`warning: the binary content was not written to files: ${formatError(error)}`);
    return result;
  }
}
