/**
 * Multi round-trip requests (2026-07-28): an `input_required` result is completed only when the caller
 * gave handlers for everything it asks; otherwise it is returned as data and nothing runs. Each retry is
 * the same method and params plus `inputResponses`, echoes `requestState` byte for byte, carries no
 * state of any other request, and gets a new id (the engine's counter). Spec: S26/basic/patterns/mrtr.
 */
import { McpError } from '../errors/index.js';
import { answerInputRequest, canAnswer } from './capabilities.js';
import type { ConnectOptions } from './options.js';

export const DEFAULT_MAX_INPUT_ROUNDS = 8;

export interface MrtrRun {
  method: string;
  params: Record<string, unknown>;
  target: string;
  options: ConnectOptions;
  signal: AbortSignal;
  /** Sends one round (a fresh request each time). */
  send(params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Runs a request to completion through MRTR rounds, or returns the incomplete result as data. */
export async function runWithInput(run: MrtrRun): Promise<Record<string, unknown>> {
  const maxRounds = run.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  let result = await run.send(run.params);
  for (let round = 1; result['resultType'] === 'input_required'; round++) {
    const requests = inputRequestsOf(result, run);
    // Without a handler for every request, hand the result back untouched (nothing executed).
    if (!requests.every(([, request]) => canAnswer(run.options, request.method, request.params)))
      return result;
    if (round > maxRounds) {
      throw new McpError(
        'protocol',
        `${run.method} on ${run.target}: still asking for input after ${maxRounds} rounds`,
        {
          delivery: 'delivered',
        },
      );
    }
    const inputResponses: Record<string, unknown> = {};
    // Fulfil every entry before retrying (S26/basic/patterns/mrtr: MUST).
    for (const [key, request] of requests) {
      const answer = answerInputRequest(run.options, request.method, request.params, {
        target: run.target,
        signal: run.signal,
      });
      inputResponses[key] = await answer;
    }
    const retry: Record<string, unknown> = { ...run.params, inputResponses };
    const state = result['requestState'];
    // Echo requestState unchanged, and send none when none came (MUST / MUST NOT).
    if (typeof state === 'string') retry['requestState'] = state;
    result = await run.send(retry);
  }
  return result;
}

function inputRequestsOf(
  result: Record<string, unknown>,
  run: MrtrRun,
): Array<[string, { method: string; params?: Record<string, unknown> }]> {
  const raw = result['inputRequests'];
  if (raw === undefined) return [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new McpError('protocol', `${run.method} on ${run.target}: inputRequests is not an object`, {
      delivery: 'delivered',
    });
  }
  const entries: Array<[string, { method: string; params?: Record<string, unknown> }]> = [];
  for (const [key, value] of Object.entries(raw)) {
    const method = (value as { method?: unknown })?.method;
    if (typeof method !== 'string') {
      throw new McpError(
        'protocol',
        `${run.method} on ${run.target}: input request ${JSON.stringify(key).slice(0, 60)} has no method`,
        {
          delivery: 'delivered',
        },
      );
    }
    const params = (value as { params?: unknown }).params;
    entries.push([
      key,
      {
        method,
        ...(typeof params === 'object' && params !== null
          ? { params: params as Record<string, unknown> }
          : {}),
      },
    ]);
  }
  return entries;
}
