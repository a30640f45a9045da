/**
 * Real, widely installed MCP servers as they are on npm, which answer `initialize` with protocol version
 * 2024-11-05 (they pin @modelcontextprotocol/sdk 1.0.1): server-github, server-postgres, server-slack,
 * server-brave-search and server-google-maps. For each, at the default revision and with `auto`: connect,
 * the negotiated version is 2024-11-05, their tools are listed, and close leaves no process behind.
 * server-postgres also answers a `query` against a throwaway cluster (test/helpers/postgres.ts); the CLI
 * lists server-github's tools as a user would run it.
 *
 * The API keys are fake: each server only checks at start that its variables are set, and no test calls
 * a tool that would reach the network.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { type CallToolResult, connect, type StdioServerConfig } from '../../src/index.js';
import { builtBin } from '../helpers/built-package.js';
import { must } from '../helpers/must.js';
import { FRUIT, usePostgres } from '../helpers/postgres.js';
import { ROOT, textOf } from './helpers.js';

const OLD_VERSION = '2024-11-05';

/** The entry file of an installed server package: its package.json `bin`, resolved in node_modules. */
function entryOf(pkg: string): string {
  const dir = path.join(ROOT, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  return path.join(dir, must(bin, `a "bin" in ${pkg}/package.json`));
}

interface OldServer {
  pkg: string;
  /** Arguments after the entry file; a function, since the database URL is known only once the cluster runs. */
  args: () => string[];
  /** The variables the server checks for at start (fake values). */
  env: Record<string, string>;
  /** A few of the tools the server lists, from its source. */
  tools: string[];
}

const pg = usePostgres();

const SERVERS: OldServer[] = [
  {
    pkg: '@modelcontextprotocol/server-github',
    args: () => [],
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_fake0000000000000000000000000000000000' },
    tools: [
      'create_or_update_file',
      'search_repositories',
      'get_file_contents',
      'create_issue',
      'list_commits',
    ],
  },
  {
    pkg: '@modelcontextprotocol/server-postgres',
    args: () => [pg.url],
    env: {},
    tools: ['query'],
  },
  {
    pkg: '@modelcontextprotocol/server-slack',
    args: () => [],
    env: { SLACK_BOT_TOKEN: 'xoxb-fake-0000', SLACK_TEAM_ID: 'T00000000' },
    tools: ['slack_list_channels', 'slack_post_message', 'slack_get_channel_history', 'slack_get_users'],
  },
  {
    pkg: '@modelcontextprotocol/server-brave-search',
    args: () => [],
    env: { BRAVE_API_KEY: 'fake-brave-key' },
    tools: ['brave_web_search', 'brave_local_search'],
  },
  {
    pkg: '@modelcontextprotocol/server-google-maps',
    args: () => [],
    env: { GOOGLE_MAPS_API_KEY: 'fake-maps-key' },
    tools: ['maps_geocode', 'maps_reverse_geocode', 'maps_search_places', 'maps_directions'],
  },
];

function configFor(server: OldServer, protocolVersion: 'auto' | undefined): StdioServerConfig {
  return {
    command: process.execPath,
    args: [entryOf(server.pkg), ...server.args()],
    env: server.env,
    timeoutMs: 30_000,
    ...(protocolVersion ? { protocolVersion } : {}),
  };
}

for (const server of SERVERS) {
  for (const protocolVersion of [undefined, 'auto'] as const) {
    describe(`${server.pkg} (SDK 1.0.1) over stdio, protocolVersion ${protocolVersion ?? 'default'}`, () => {
      test(`connects at ${OLD_VERSION}, lists its tools, and close leaves no process`, async () => {
        const client = await connect(configFor(server, protocolVersion));
        let closed = false;
        try {
          assert.equal(client.protocolVersion, OLD_VERSION);
          const tools = await client.listTools();
          const names = tools.map((tool) => tool.name);
          for (const name of server.tools) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
          for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', `${tool.name} inputSchema`);

          if (server.pkg === '@modelcontextprotocol/server-postgres') {
            const result = (await client.callTool('query', {
              sql: 'SELECT id, name, colour FROM fruit ORDER BY id',
            })) as CallToolResult;
            assert.notEqual(result.isError, true, textOf(result));
            const text = textOf(result);
            for (const row of FRUIT) assert.match(text, new RegExp(`"${row.name}"`));
            assert.deepEqual(JSON.parse(text), FRUIT);
          }

          closed = true;
          const report = await client.close();
          assert.equal(report.process?.activeProcesses, 0, JSON.stringify(report));
        } finally {
          if (!closed) await client.close();
        }
      });
    });
  }
}

describe('the CLI against an old server', () => {
  let BIN = '';
  before(async () => {
    BIN = await builtBin();
  });

  test('autos-mcp tools -- node <server-github> lists its tools and exits 0', () => {
    const github = entryOf('@modelcontextprotocol/server-github');
    const run = spawnSync(process.execPath, [BIN, 'tools', '--', process.execPath, github], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_fake0000000000000000000000000000000000' },
    });
    assert.equal(run.status, 0, run.stderr);
    for (const name of ['create_issue', 'search_repositories', 'get_file_contents', 'list_commits']) {
      assert.match(run.stdout, new RegExp(`^${name}\\(`, 'm'), run.stdout);
    }
  });
});
