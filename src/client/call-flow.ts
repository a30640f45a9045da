/**
 * The way of a call that may take more than one round trip: 2026 MRTR rounds (`mrtr.ts`), then the seam
 * between the client and its extension modules — the module that claims the result's `resultType` (if any)
 * follows it to the final result through an `ExtensionPort` made here: requests on the client's negotiated
 * terms, the caller's MRTR handlers, the call's deadline. The client never looks at which extension it is.
 * Spec: S26/basic/patterns/mrtr, S26/basic/versioning (extensions), SEP-2133.
 */
import type { NormalizedCommon } from '../config/index.js';
import type { ExtensionPort, TurnedOn } from '../extensions/index.js';
import { type Clock, systemClock } from '../internal/clock.js';
import type { Era } from '../protocol/versions.js';
import { answerInputRequest, canAnswer } from './capabilities.js';
import { DEFAULT_MAX_INPUT_ROUNDS, runWithInput } from './mrtr.js';
import type { ConnectOptions } from './options.js';
import { MRTR_METHODS, type WireRequestOptions } from './wire.js';

/** What a client hands its calls: its settings and its one way to send a request (on the negotiated terms). */
export interface CallFlow {
  extensions: TurnedOn;
  config: NormalizedCommon;
  options: ConnectOptions;
  closeSignal: AbortSignal;
  send(
    method: string,
    params: Record<string, unknown>,
    options: WireRequestOptions,
  ): Promise<Record<string, unknown>>;
}

/** The clock of a client's extension work (the `@internal` option, else the system's). */
export function clockOf(options: ConnectOptions): Clock {
  return options.clock ?? systemClock;
}

/** Sends a request through MRTR where it applies (2026), then follows a claimed result to its end. */
export async function callThrough(
  flow: CallFlow,
  era: Era,
  call: { method: string; params: Record<string, unknown>; options: WireRequestOptions },
): Promise<Record<string, unknown>> {
  const startedAt = clockOf(flow.options).now();
  const { method, params, options } = call;
  let result: Record<string, unknown>;
  if (era === 'legacy' || !MRTR_METHODS.has(method)) result = await flow.send(method, params, options);
  else {
    const callSignal = options.signal;
    let joined: AbortSignal | undefined;
    result = await runWithInput({
      method,
      params,
      target: flow.config.target,
      options: flow.options,
      // Joined only when an input round reads it: `AbortSignal.any` cost ~8 µs a call on Node 20 and leaves
      // a dependant on the caller's signal until GC (the worker thread passes the same signal every call).
      get signal() {
        joined ??= callSignal ? AbortSignal.any([callSignal, flow.closeSignal]) : flow.closeSignal;
        return joined;
      },
      send: (round) => flow.send(method, round, options),
    });
  }
  return followClaimed(flow, { ...call, startedAt }, result);
}

/**
 * `result` as the caller gets it: followed to its end by the module that claims it, or as it is. The
 * call's deadline runs from `startedAt`: its `maxTotalTimeoutMs`, else its `timeoutMs`, else the config's.
 */
function followClaimed(
  context: CallFlow,
  call: { method: string; params: Record<string, unknown>; options: WireRequestOptions; startedAt: number },
  result: Record<string, unknown>,
): Promise<Record<string, unknown>> | Record<string, unknown> {
  const module = context.extensions.claimer(call.method, result['resultType']);
  if (module?.follow === undefined) return result;
  const name = call.params['name'];
  const operation = typeof name === 'string' ? `${call.method} ${name.slice(0, 200)}` : call.method;
  return module.follow(
    { method: call.method, params: call.params, result, callOptions: call.options, operation },
    portFor(context, call.options, call.startedAt),
  );
}

function portFor(context: CallFlow, options: WireRequestOptions, startedAt: number): ExtensionPort {
  const { config, closeSignal } = context;
  const signal = options.signal ? AbortSignal.any([options.signal, closeSignal]) : closeSignal;
  const requestTimeoutMs = options.timeoutMs ?? config.timeoutMs;
  const handlerContext = { target: config.target, signal };
  return {
    target: config.target,
    signal,
    deadline: startedAt + (options.maxTotalTimeoutMs ?? requestTimeoutMs),
    requestTimeoutMs,
    maxInputRounds: context.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
    clock: clockOf(context.options),
    request: (method, params, request) =>
      context.send(method, params, {
        timeoutMs: request.timeoutMs,
        maxTotalTimeoutMs: request.timeoutMs,
        ...(request.routeName === undefined ? {} : { routeName: request.routeName }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      }),
    canAnswer: (method, params) => canAnswer(context.options, method, params),
    answerInput: (method, params) => answerInputRequest(context.options, method, params, handlerContext),
  };
}
