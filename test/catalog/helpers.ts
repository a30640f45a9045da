/**
 * Servers for the catalog's tests: real peers (the demo server as built from these sources,
 * server-everything, server-memory, run with node from node_modules), fixtures that die or hang, and a
 * server whose every start is counted in a file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfig } from '../../src/client/index.js';
import { builtBin } from '../helpers/built-package.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const node = (script: string, ...args: string[]): ServerConfig => ({
  command: process.execPath,
  args: [path.join(ROOT, script), ...args],
});

export const EVERYTHING = node('node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio');
export const MEMORY = (file: string): ServerConfig => ({
  ...node('node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
  env: { MEMORY_FILE_PATH: file },
});
/** Exits with code 2 before answering anything. */
export const DEAD = node('test/fixtures/exit-at-start.mjs');
/** Answers initialize and tools/list, and exits (code 3) on the first tools/call. */
export const CRASHING = node('test/fixtures/crash-mid-call.mjs');
/** Starts and never answers. */
export const HUNG = node('test/fixtures/silent-start.mjs');
export const MODERN: ServerConfig = {
  ...node('test/fixtures/modern-server.mjs'),
  protocolVersion: '2026-07-28',
};
export const HOSTILE = (filler = 0): ServerConfig =>
  node('test/fixtures/catalog-hostile.mjs', String(filler));
export const DRIFTING = (env: Record<string, string> = {}): ServerConfig => ({
  ...node('test/fixtures/drifting-tools.mjs'),
  env,
});

export async function demo(): Promise<ServerConfig> {
  return { command: process.execPath, args: [await builtBin(), 'demo-server'] };
}

/** A throwaway directory, and a server that appends a line to `starts` each time it starts, then exits 3. */
export function scratch(): { dir: string; starts: () => number; counted: ServerConfig; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'autos-catalog-'));
  const log = path.join(dir, 'starts.log');
  return {
    dir,
    starts: () => {
      try {
        return readFileSync(log, 'utf8').length;
      } catch {
        return 0;
      }
    },
    counted: {
      command: process.execPath,
      args: ['-e', "require('fs').appendFileSync(process.env.STARTS_LOG, 'x'); process.exit(3)"],
      env: { STARTS_LOG: log },
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The error a promise rejects with (fails when it resolves). */
export async function rejection(
  promise: Promise<unknown>,
): Promise<{ kind: string; delivery: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { kind: string; delivery: string; message: string };
  }
  throw new Error('want a rejection, got a value');
}
