/**
 * Declare only what is implemented: the client capabilities follow from the handlers given in options,
 * and the same handlers serve 2025's server-initiated requests and 2026's MRTR input requests.
 * Spec: S25/basic/lifecycle (capabilities), S25/client/elicitation, S26/basic/patterns/mrtr.
 */
import { INVALID_PARAMS, METHOD_NOT_FOUND } from '../protocol/jsonrpc.js';
import type { ConnectOptions, HandlerContext } from './options.js';
import type { ElicitationRequest } from './types.js';

/**
 * The `ClientCapabilities` object for these options and the turned-on extensions' declarations
 * (`extensions`, SEP-2133); `{}` when no handler was given and no extension is on.
 */
export function clientCapabilities(
  options: ConnectOptions,
  extensions?: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (options.onElicitation) capabilities['elicitation'] = { form: {} };
  if (options.onSampling) capabilities['sampling'] = {};
  if (options.onListRoots) capabilities['roots'] = {};
  if (extensions !== undefined) capabilities['extensions'] = extensions;
  return capabilities;
}

/**
 * The client's own refusal of a server request, answered with this JSON-RPC code. Not an `McpError`: it
 * never reaches the caller, and it is not something the server returned.
 */
export class HandlerRefusal extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** True when a handler can answer this input request (form-mode elicitation only: url mode is not declared). */
export function canAnswer(
  options: ConnectOptions,
  method: string,
  params?: Record<string, unknown>,
): boolean {
  switch (method) {
    case 'elicitation/create':
      return (
        options.onElicitation !== undefined && (params?.['mode'] === undefined || params['mode'] === 'form')
      );
    case 'sampling/createMessage':
      return options.onSampling !== undefined;
    case 'roots/list':
      return options.onListRoots !== undefined;
    default:
      return false;
  }
}

/**
 * Runs the handler for one server→client request. Returns undefined when nothing is declared for the
 * method (the engine answers -32601), or a promise of the result.
 */
export function answerInputRequest(
  options: ConnectOptions,
  method: string,
  params: Record<string, unknown> | undefined,
  context: HandlerContext,
): Promise<Record<string, unknown>> | undefined {
  if (!canAnswer(options, method)) return undefined;
  // Handlers are the caller's code: a synchronous throw or a plain (non-promise) return value must
  // still become an answer to the server, never an exception inside the message loop.
  return Promise.resolve().then(() => {
    switch (method) {
      case 'elicitation/create': {
        const request = (params ?? {}) as ElicitationRequest;
        // A request without `mode` is form mode; a mode we did not declare gets -32602 (S25/client/elicitation).
        if (request.mode !== undefined && request.mode !== 'form') {
          throw new HandlerRefusal(
            INVALID_PARAMS,
            `elicitation mode ${String(request.mode)} is not supported`,
          );
        }
        if (options.onElicitation)
          return options.onElicitation(request, context) as Promise<Record<string, unknown>>;
        break;
      }
      case 'sampling/createMessage':
        if (options.onSampling) return options.onSampling(params ?? {}, context);
        break;
      case 'roots/list':
        if (options.onListRoots) return options.onListRoots(context) as Promise<Record<string, unknown>>;
        break;
    }
    throw new HandlerRefusal(METHOD_NOT_FOUND, `Method not found: ${method}`);
  });
}
