/**
 * Test harness for the stdio transport: starts a fixture server (a real `node` child) through
 * StdioConnection and records what the connection reports, with helpers to await a message or the close.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpError } from '../../../src/errors/index.js';
import type { StdioTransportOptions } from '../../../src/transport/options.js';
import { StdioConnection } from '../../../src/transport/stdio/index.js';

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

export class Recorder {
  readonly messages: unknown[] = [];
  closedWith: McpError | undefined;
  closedCount = 0;
  readonly #waiters: Array<() => void> = [];

  readonly events = {
    message: (value: unknown): void => {
      this.messages.push(value);
      this.#wake();
    },
    closed: (error: McpError): void => {
      this.closedCount++;
      this.closedWith = error;
      this.#wake();
    },
  };

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Resolves with the first message matching `predicate` (already received or future); rejects after `ms`. */
  async waitFor(predicate: (value: any) => boolean, ms = 5000): Promise<any> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for a message; got ${this.messages.length}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  async waitClosed(ms = 5000): Promise<McpError> {
    const deadline = Date.now() + ms;
    while (this.closedWith === undefined) {
      if (Date.now() > deadline) throw new Error('timed out waiting for closed()');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.closedWith;
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
