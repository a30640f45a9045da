/** Shared bits of the client tests: fixture configs and tool-result text. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StdioServerConfig } from '../../src/index.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(ROOT, 'test/fixtures');

export function fixture(
  name: string,
  args: string[] = [],
  extra: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return { command: process.execPath, args: [path.join(FIXTURES, name), ...args], ...extra };
}

export function demoServer(extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return { command: process.execPath, args: [path.join(ROOT, 'examples/demo-server.mjs')], ...extra };
}

export function textOf(result: { content?: Array<{ type: string; [k: string]: unknown }> }): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? String(c['text']) : `[${c.type}]`)).join('');
}
