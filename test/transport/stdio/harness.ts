/**
 * Test harness for the stdio transport: starts a fixture server (a real `node` child) through
 * StdioConnection and records what the connection reports, with helpers to await a message or the close.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpError } from '../../../src/errors/index.js';
import type { StdioTransportOptions } from '../../../src/transport/options.js';
import { StdioConnection } from '../../../src/transport/stdio/index.js';
import { waitFor } from '../../helpers/wait.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');

export function fixtureOptions(
  name: string,
  args: string[] = [],
  extra: Partial<StdioTransportOptions> = {},
) {
  return {
    command: process.execPath,
    args: [path.join(FIXTURES, name), ...args],
    env: {},
    stderr: 'capture',
    maxMessageBytes: 4 * 1024 * 1024,
    ...extra,
  } satisfies StdioTransportOptions;
}

/** A message the server sent, with the fields tests look at; a fixture may leave any of them out. */
export interface Received {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** Whether a received JSON value is an object, so that its fields can be read. */
export function isReceived(value: unknown): value is Received {
  return typeof value === 'object' && value !== null;
}

/** `value[key]` when `value` is an object (a received message or a part of one), else undefined. */
function field(value: unknown, key: string | number): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

/** The pids a fixture's notification reports in `params.data.pids`, failing unless they are all numbers. */
export function reportedPids(note: Received): number[] {
  const pids = field(field(note.params, 'data'), 'pids');
  assert.ok(typeof pids === 'object' && pids !== null, `want params.data.pids, got ${JSON.stringify(note)}`);
  const all: unknown[] = Object.values(pids);
  const numbers = all.filter((pid): pid is number => typeof pid === 'number');
  assert.equal(numbers.length, all.length, `want every pid a number, got ${JSON.stringify(pids)}`);
  return numbers;
}

/** The text of the first content block of a `tools/call` answer, failing the test when there is none. */
export function firstText(answer: Received): string {
  const text = field(field(field(answer.result, 'content'), 0), 'text');
  assert.ok(typeof text === 'string', `want result.content[0].text, got ${typeof text}`);
  return text;
}

export class Recorder {
  readonly messages: unknown[] = [];
  closedWith: McpError | undefined;
  closedCount = 0;

  readonly events = {
    message: (value: unknown): void => {
      this.messages.push(value);
    },
    closed: (error: McpError): void => {
      this.closedCount++;
      this.closedWith = error;
    },
  };

  /** Resolves with the first message matching `predicate` (already received or future); rejects after `ms`. */
  waitFor(predicate: (value: Received) => boolean, ms = 5000): Promise<Received> {
    return waitFor(() => this.messages.find((m): m is Received => isReceived(m) && predicate(m)), {
      timeoutMs: ms,
      what: `a matching message (${this.messages.length} received at the start)`,
    });
  }

  /** Resolves with the error `closed()` reported; rejects after `ms`. */
  waitClosed(ms = 5000): Promise<McpError> {
    return waitFor(() => this.closedWith, { timeoutMs: ms, what: 'closed()' });
  }
}

export async function open(name: string, args: string[] = [], extra: Partial<StdioTransportOptions> = {}) {
  const connection = new StdioConnection(fixtureOptions(name, args, extra));
  const recorder = new Recorder();
  await connection.start(recorder.events);
  return { connection, recorder };
}

export function request(id: number, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0' as const, id, method, params };
}
