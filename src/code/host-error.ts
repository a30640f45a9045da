/**
 * A host-side failure (the catalog's error, a bound the bridge enforces) as the plain data that crosses into
 * the sandbox: name, message, kind, delivery, and for a call its ref and the tool's hints. Never the error
 * object, its `cause`, its stack or an engine handle: only these fields, each a bounded string or boolean.
 */

/** The tool's behaviour hints (MCP `ToolAnnotations`), shown on a failed call so code can judge a retry. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

/** The error data a sandbox sees (`error.kind`, `error.delivery`, …). */
export interface BridgeErrorData {
  name: 'McpError';
  kind: string;
  message: string;
  delivery: 'not_sent' | 'unknown' | 'delivered';
  ref?: string;
  code?: number;
  annotations?: ToolHints;
}

const MAX_MESSAGE = 2_000;
const KIND = /^[a-z][a-z_]{0,39}$/;
const DELIVERIES = new Set(['not_sent', 'unknown', 'delivered']);

function field(error: unknown, key: string): unknown {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return undefined;
  try {
    return (error as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * The plain form of `error`, thrown by the catalog (an `McpError` normally). An unknown error keeps its
 * message; its delivery is `unknown` unless it says otherwise, because the bridge cannot tell whether it left.
 */
export function bridgeErrorOf(error: unknown, ref?: string): BridgeErrorData {
  const kind = field(error, 'kind');
  const delivery = field(error, 'delivery');
  const message = field(error, 'message');
  const code = field(error, 'code');
  const data: BridgeErrorData = {
    name: 'McpError',
    kind: typeof kind === 'string' && KIND.test(kind) ? kind : 'failed',
    message: (typeof message === 'string' ? message : String(error)).slice(0, MAX_MESSAGE),
    delivery:
      typeof delivery === 'string' && DELIVERIES.has(delivery)
        ? (delivery as BridgeErrorData['delivery'])
        : 'unknown',
  };
  if (ref !== undefined) data.ref = ref;
  if (typeof code === 'number' && Number.isInteger(code)) data.code = code;
  return data;
}

/** A failure the bridge itself decided (a bound, a refusal): nothing was sent. */
export function refusal(kind: string, message: string, ref?: string): BridgeErrorData {
  const data: BridgeErrorData = { name: 'McpError', kind, message, delivery: 'not_sent' };
  if (ref !== undefined) data.ref = ref;
  return data;
}

/** The three hints of a `describe` answer (at its top level, or under `tool` / `definition`), if any. */
export function hintsOf(described: unknown): ToolHints | undefined {
  const holder = [described, field(described, 'tool'), field(described, 'definition')].find((candidate) => {
    const annotations = field(candidate, 'annotations');
    return annotations !== null && typeof annotations === 'object';
  });
  const annotations = field(holder, 'annotations');
  if (annotations === undefined) return undefined;
  const hints: ToolHints = {};
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const) {
    const value = field(annotations, key);
    if (typeof value === 'boolean') hints[key] = value;
  }
  return hints;
}
