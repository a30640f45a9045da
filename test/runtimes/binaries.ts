/**
 * The JavaScript runtimes autos-mcp is tested on besides Node, pinned, and where their binaries are. Each comes
 * from its npm package (`bun`, `deno`: both ship the binary, for this platform through an optional
 * dependency), fetched with `npx -y --prefer-offline <pkg>@<version>` as scripts/test-all.sh fetches Node 22
 * and 24: the first run downloads it into npm's npx cache, later runs reuse that copy. A runtime that cannot
 * be fetched or started is an error, never a skip. Used by test/runtimes/suite.ts and bench/groups/runtimes.ts.
 */
import { execFileSync } from 'node:child_process';
import { npmEnv } from '../helpers/npm.js';

export type RuntimeName = 'node' | 'bun' | 'deno';

/** The pinned versions (docs/runtimes.md lists the same). */
export const PINNED = { bun: '1.4.4', deno: '2.9.6' } as const;

export interface Runtime {
  readonly name: RuntimeName;
  /** What the runtime reports: `v20.20.2`, `1.4.4`, `2.9.6`. */
  readonly version: string;
  /** The argv that runs a script file: the script path and its arguments follow. */
  readonly run: readonly string[];
}

/** How each runtime prints its own binary's path and version, in one line of JSON. */
const PROBE: Record<Exclude<RuntimeName, 'node'>, string[]> = {
  bun: ['-e', 'console.log(JSON.stringify([process.execPath, Bun.version]))'],
  deno: ['eval', 'console.log(JSON.stringify([Deno.execPath(), Deno.version.deno]))'],
};

/**
 * The runtime `name`, its binary fetched (or found in the npx cache) and started once to find its path.
 * `node` is this process's own Node. Throws, naming the package, when it cannot be fetched or run.
 */
export function resolveRuntime(name: RuntimeName): Runtime {
  if (name === 'node') return { name, version: process.version, run: [process.execPath] };
  const spec = `${name}@${PINNED[name]}`;
  let out: string;
  try {
    out = execFileSync('npx', ['-y', '--prefer-offline', spec, ...PROBE[name]], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
      env: npmEnv(),
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').slice(-600);
    throw new Error(`could not fetch or start ${spec} from npm (npx -y ${spec}): ${stderr}`);
  }
  const [path, version] = JSON.parse(out.trim().split('\n').pop() ?? '[]') as [string?, string?];
  if (path === undefined || version !== PINNED[name])
    throw new Error(
      `${spec} printed ${JSON.stringify(out.trim())}, not its path and version ${PINNED[name]}`,
    );
  // Deno needs `run` and permissions; a package.json beside the script makes it use that node_modules.
  return { name, version, run: name === 'deno' ? [path, 'run', '-A'] : [path] };
}
