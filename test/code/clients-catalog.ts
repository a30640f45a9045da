/**
 * A `CodeCatalog` over real `Client`s, for the code tests: refs `server.tool` map onto the client named
 * `server` (the part before the first dot). `search` is a plain word match (the real ranking is the
 * catalog's, autos-mcp/catalog); `describe` is the listed definition with its ref. Also `recordingCatalog`,
 * an in-process catalog that records every request reaching it, for the attack tests.
 */

import type { CodeCatalog } from '../../src/code/index.js';
import type { Client } from '../../src/index.js';

function split(ref: string): [string, string] {
  const dot = ref.indexOf('.');
  if (dot <= 0) throw Object.assign(new Error(`${ref} is not a server.tool ref`), { kind: 'invalid_tool' });
  return [ref.slice(0, dot), ref.slice(dot + 1)];
}

/** A catalog over `clients` (by server name). */
export function clientsCatalog(clients: Record<string, Client>): CodeCatalog {
  const clientOf = (server: string): Client => {
    const client = clients[server];
    if (client === undefined)
      throw Object.assign(new Error(`no server named ${server}`), {
        kind: 'invalid_tool',
        delivery: 'not_sent',
      });
    return client;
  };
  return {
    async search(query, options) {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const found: Array<{ ref: string; description?: string }> = [];
      for (const [server, client] of Object.entries(clients))
        for (const tool of await client.listTools({ cache: true })) {
          const text = `${tool.name} ${tool.description ?? ''}`.toLowerCase();
          if (words.some((word) => text.includes(word)))
            found.push({
              ref: `${server}.${tool.name}`,
              ...(tool.description ? { description: tool.description } : {}),
            });
        }
      return found.slice(0, options?.limit ?? 10);
    },
    async describe(ref) {
      const [server, name] = split(ref);
      const tool = (await clientOf(server).listTools({ cache: true })).find((t) => t.name === name);
      if (tool === undefined)
        throw Object.assign(new Error(`${ref}: no such tool`), {
          kind: 'invalid_tool',
          delivery: 'not_sent',
        });
      return { ref, ...tool };
    },
    async call(ref, args, options) {
      const [server, name] = split(ref);
      return clientOf(server).callTool(name, args ?? {}, {
        ...(options?.signal ? { signal: options.signal } : {}),
        ...(options?.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      });
    },
  };
}

/** What reached a recording catalog. */
export interface Reached {
  op: 'search' | 'describe' | 'call';
  ref?: string;
  args?: unknown;
}

/**
 * An in-process catalog whose `call` answers with `answer(ref, args, options)` (default: echo the arguments
 * as a text result), recording every request that reached it.
 */
export function recordingCatalog(
  answer?: (
    ref: string,
    args: Record<string, unknown> | undefined,
    options: { signal?: AbortSignal; timeoutMs?: number } | undefined,
  ) => Promise<unknown>,
): CodeCatalog & { reached: Reached[] } {
  const reached: Reached[] = [];
  return {
    reached,
    async search(query) {
      reached.push({ op: 'search', args: query });
      return [{ ref: 'echo.say', description: 'says it' }];
    },
    async describe(ref) {
      reached.push({ op: 'describe', ref });
      return { ref, name: ref, annotations: { readOnlyHint: true, idempotentHint: true } };
    },
    async call(ref, args, options) {
      reached.push({ op: 'call', ref, args });
      if (answer) return answer(ref, args, options);
      return { content: [{ type: 'text', text: JSON.stringify(args ?? {}) }] };
    },
  };
}
