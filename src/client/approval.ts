/**
 * Calls that wait for a yes: a tool matching the config's `tools.approve` is called only when the
 * `onApprove` handler of the connect options answers `true`. No handler, any other answer, or a throw:
 * the call is refused with `kind: 'denied'`, `delivery: 'not_sent'` — nothing reaches the server. The
 * wait honours the call's deadline (`timeoutMs`, else the config's) and signal, and the client's close:
 * a timeout, cancel or close while waiting is `not_sent` too.
 */
import type { NormalizedCommon } from '../config/index.js';
import { McpError } from '../errors/index.js';
import type { CallOptions } from './call-options.js';
import { globMatch } from './tool-filter.js';
import type { Tool, ToolAnnotations } from './types.js';

/** What `onApprove` is asked: which tool, on which server, with which arguments. */
export interface ApprovalRequest {
  /** The server's display name (its config target); the catalog gives its configured name. */
  server?: string;
  tool: string;
  /** The arguments the call would send (the caller's object: read it, do not change it). */
  arguments: Record<string, unknown>;
  /** The tool's annotations from its listed definition, those of the spec's types only (untrusted hints). */
  annotations?: ToolAnnotations;
}

/** Answers an approval: `true` lets the call go; anything else, or a throw, refuses it. */
export type ApprovalHandler = (request: ApprovalRequest) => boolean | Promise<boolean>;

/** True when the config's `tools.approve` names `name`. */
export function needsApproval(config: Pick<NormalizedCommon, 'toolFilter'>, name: string): boolean {
  return config.toolFilter?.approve?.some((pattern) => globMatch(pattern, name)) === true;
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** The spec-typed annotations of `tool` (a hint of another type is left out), or undefined. */
function annotationsOf(tool: Tool | undefined): ToolAnnotations | undefined {
  const raw = tool?.annotations;
  if (raw === undefined) return undefined;
  const out: ToolAnnotations = {};
  if (typeof raw['title'] === 'string') out.title = raw['title'];
  for (const hint of HINTS) if (typeof raw[hint] === 'boolean') out[hint] = raw[hint];
  return Object.keys(out).length === 0 ? undefined : out;
}

/** How to wait for the answer. */
interface ApprovalWait {
  handler: ApprovalHandler | undefined;
  request: ApprovalRequest;
  target: string;
  /** The call's deadline in ms (`Infinity`: none). */
  timeoutMs: number;
  /** The call's signal and the client's close, combined. */
  signal: AbortSignal;
  /** True when the client closed (then a wait ended by `signal` is `closed`, not `cancelled`). */
  closed: () => boolean;
}

/** The `denied` error (`not_sent`) of a call of `tool` on `target`, saying why. */
export function deniedError(tool: string, target: string, why: string, cause?: unknown): McpError {
  return new McpError('denied', `tool ${tool} on ${target} was not called: ${why}`, {
    data: { tool },
    target,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Why a call waits in vain when no `onApprove` was given. */
export const NO_APPROVER = 'it needs approval and no one can answer';

function refused(wait: ApprovalWait, why: string, cause?: unknown): McpError {
  return deniedError(wait.request.tool, wait.target, why, cause);
}

/**
 * Asks `onApprove` about one call of `tool` (its listed definition, or its name when none is known);
 * resolves on a yes, else throws (see `awaitApproval`). The wait is bounded by the call's `timeoutMs`
 * (else the config's) and ends with the call's signal or the client's close.
 */
export function approveCall(
  handler: ApprovalHandler | undefined,
  config: Pick<NormalizedCommon, 'target' | 'timeoutMs'>,
  tool: Tool | string,
  args: Record<string, unknown>,
  signals: { call: CallOptions; close: AbortSignal },
): Promise<void> {
  const name = typeof tool === 'string' ? tool : tool.name;
  const annotations = typeof tool === 'string' ? undefined : annotationsOf(tool);
  const request: ApprovalRequest = { server: config.target, tool: name, arguments: args };
  if (annotations !== undefined) request.annotations = annotations;
  const { call, close } = signals;
  return awaitApproval({
    handler,
    request,
    target: config.target,
    timeoutMs: call.timeoutMs ?? config.timeoutMs,
    signal: call.signal ? AbortSignal.any([call.signal, close]) : close,
    closed: () => close.aborted,
  });
}

/** Resolves when the handler said yes; else throws `denied` (or `timeout`/`cancelled`/`closed`), `not_sent`. */
async function awaitApproval(wait: ApprovalWait): Promise<void> {
  if (wait.handler === undefined) throw refused(wait, NO_APPROVER);
  const { tool } = wait.request;
  const ended = (): McpError =>
    wait.closed()
      ? new McpError(
          'closed',
          `tools/call ${tool} on ${wait.target}: the client closed while waiting for approval`,
        )
      : new McpError(
          'cancelled',
          `tools/call ${tool} on ${wait.target}: cancelled while waiting for approval`,
        );
  if (wait.signal.aborted) throw ended();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    onAbort = () => reject(ended());
    wait.signal.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(wait.timeoutMs))
      timer = setTimeout(
        () =>
          reject(
            new McpError(
              'timeout',
              `tools/call ${tool} on ${wait.target}: no approval within ${wait.timeoutMs} ms (not called)`,
            ),
          ),
        wait.timeoutMs,
      );
  });
  let answer: unknown;
  try {
    const handler = wait.handler;
    answer = await Promise.race([
      Promise.resolve()
        .then(() => handler(wait.request))
        .catch((error: unknown) => {
          throw refused(wait, 'the approval handler failed', error);
        }),
      stop,
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) wait.signal.removeEventListener('abort', onAbort);
  }
  if (answer !== true) throw refused(wait, 'approval refused');
}
