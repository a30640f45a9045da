/**
 * The fixed part of a generated module: the typed binding over a client. It holds no server text; the
 * per-tool parts (`pins`, `structured`, the `Tools` interface) are written by `module.ts` before it.
 * It must compile under a user's strictest settings (`strict`, `noUncheckedIndexedAccess`,
 * `exactOptionalPropertyTypes`, `noPropertyAccessFromIndexSignature`, `verbatimModuleSyntax`,
 * `erasableSyntaxOnly`) and import only the public API of `autos-mcp`.
 */

/** The import line of a generated module. */
export const IMPORTS = `import {
  type CallOptions,
  type CallToolResult,
  type Client,
  type ConnectOptions,
  isErrorKind,
  isInputRequired,
  McpError,
  type ServerConfig,
  withClient,
} from 'autos-mcp';
`;

/** The result type of a tool with an `outputSchema`. */
export const TYPED_RESULT = `/**
 * The result of a tool that declares an \`outputSchema\`: unless \`isError\`, its \`structuredContent\` has
 * the declared type. (The server's word: it is checked to be an object, not validated against the schema.)
 */
export type TypedResult<T> =
  | (CallToolResult & { isError?: false; structuredContent: T })
  | (CallToolResult & { isError: true });
`;

/** `bind`, `withTools` and the call they share. */
export const BINDING = `type ToolName = keyof typeof pins;
type AnyTool = (args?: Record<string, unknown>, options?: CallOptions) => Promise<CallToolResult>;

/**
 * The clients \`withTools\` connected: their config pins every tool of this module, so the client itself
 * checks each call against its last \`tools/list\` (listed once, and again only after the server says its
 * tools changed) and no call needs a listing of its own.
 */
const pinnedClients = new WeakSet<Client>();

/**
 * The tools of a connected client, one method each. Each call checks the tool's current definition
 * against the digest recorded here: a tool that changed or is no longer listed is refused with
 * \`kind: 'tool_changed'\`, \`delivery: 'not_sent'\`. A client from \`withTools\` checks against its last
 * \`tools/list\`; any other client is asked for a fresh one before each call (\`withTools\` lists once).
 */
export function bind(client: Client): Tools {
  const tools: Record<string, AnyTool> = Object.create(null);
  for (const name of Object.keys(pins) as ToolName[]) {
    const tool: AnyTool = (args = {}, options) => call(client, name, args, options);
    Object.defineProperty(tools, name, { value: tool, enumerable: true });
  }
  // cast: one method per key of pins, and Tools is generated from the same tool list (results: the server's word)
  return tools as unknown as Tools;
}

/**
 * Connects to the server of \`config\` with each tool pinned to the definition it was generated from (the
 * client refuses a changed tool with \`tool_changed\`), runs \`fn\` with the bound tools, and closes —
 * also when \`fn\` throws.
 */
export function withTools<T>(
  config: ServerConfig,
  fn: (tools: Tools, client: Client) => Promise<T> | T,
  options?: ConnectOptions,
): Promise<T> {
  const pinned: ServerConfig = { ...config, pin: { ...config.pin, ...pins } };
  return withClient(
    pinned,
    (client) => {
      pinnedClients.add(client);
      return fn(bind(client), client);
    },
    options,
  );
}

/** \`data\` is the client's own when it refused the call (with the parts that changed). */
function changedError(name: ToolName, data: { tool: string; missing: boolean }, cause?: unknown): McpError {
  const changed = data.missing ? 'is no longer listed by the server' : 'changed since this module was generated';
  return new McpError('tool_changed', \`tool \${name} \${changed}: run autos-mcp types again\`, {
    delivery: 'not_sent',
    data,
    ...(cause === undefined ? {} : { cause }),
  });
}

async function call(
  client: Client,
  name: ToolName,
  args: Record<string, unknown>,
  options: CallOptions | undefined,
): Promise<CallToolResult> {
  const pinned = pinnedClients.has(client);
  if (!pinned) {
    const list = await client.listToolsDetailed({ cache: true });
    const current = Object.hasOwn(list.digests, name) ? list.digests[name] : undefined;
    if (current?.digest !== pins[name].digest)
      throw changedError(name, { tool: name, missing: current === undefined });
  }
  let result: Awaited<ReturnType<Client['callTool']>>;
  try {
    result = await client.callTool(name, args, options);
  } catch (error) {
    if (pinned && isErrorKind(error, 'tool_changed')) {
      const data = { tool: name, missing: false, ...(error.data as object | undefined) };
      throw changedError(name, data, error);
    }
    throw error;
  }
  if (isInputRequired(result))
    throw new McpError('protocol', \`tool \${name} asked for input that no handler of this client answers (input_required); call it with client.callTool to get that request\`, {
      delivery: 'delivered',
    });
  const content = result.structuredContent;
  if (structured.has(name) && result.isError !== true && (typeof content !== 'object' || content === null || Array.isArray(content)))
    throw new McpError('protocol', \`tool \${name} declares an outputSchema but returned no structuredContent object\`, {
      delivery: 'delivered',
    });
  return result;
}
`;
