/**
 * The client the official MCP conformance runner spawns (`conformance client --command …`): the server URL
 * is the last argv, the scenario and wire come from `MCP_CONFORMANCE_*` env. It uses only the public API,
 * does what each scenario of @modelcontextprotocol/conformance (pinned in scripts/conformance.sh) asks,
 * and prints `EXIT_MARKER` as the process really exits, so the script can check the exit status, which
 * suite runs do not record.
 */
import { mkdtempSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Client,
  type ConnectOptions,
  connect,
  type ElicitationRequest,
  type ElicitResult,
  isInputRequired,
  isMcpError,
  type ProtocolVersion,
} from '../../src/index.js';
import { createOAuth, type OAuth, type OAuthConfig } from '../../src/oauth/index.js';

/**
 * Printed as the last stdout line, `<marker> <exit code>`, from the `exit` event: a client that hangs after
 * its work (a handle left open by `close()`) is killed by the runner and prints nothing.
 */
const EXIT_MARKER = 'autos-mcp-conformance-exit';

type ScenarioRun = (client: Client, context: Record<string, unknown>) => Promise<void>;

interface Scenario {
  options?: ConnectOptions;
  run: ScenarioRun;
}

/** Accepts a form elicitation with every field's `default`, plus `fallback` for fields without one. */
function acceptDefaults(fallback: Record<string, string | number | boolean> = {}) {
  return async (request: ElicitationRequest): Promise<ElicitResult> => {
    const properties = (request.requestedSchema?.['properties'] ?? {}) as Record<
      string,
      { default?: unknown }
    >;
    const content: NonNullable<ElicitResult['content']> = {};
    for (const [name, property] of Object.entries(properties)) {
      const value = property?.default ?? fallback[name];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        content[name] = value;
    }
    return { action: 'accept', content };
  };
}

function expectComplete(name: string, result: unknown): void {
  if (isInputRequired(result)) throw new Error(`${name} ended as input_required`);
  if ((result as { isError?: unknown }).isError === true) throw new Error(`${name} returned isError`);
}

async function listAndCall(client: Client, name: string, args: Record<string, unknown> = {}) {
  await client.listTools();
  expectComplete(name, await client.callTool(name, args));
}

const listOnly: Scenario = {
  run: async (client) => {
    await client.listTools();
  },
};

/**
 * Skills (SEP-2640, extension scenarios): the first listed skill is read into a scratch folder; a skill that
 * fails verification is refused (`skill_rejected`), which is what the verify scenarios want; the runner
 * checks that no other file was asked for.
 */
const readFirstSkill: Scenario = {
  run: async (client) => {
    const [first] = (await client.listSkills()).skills;
    if (first === undefined) throw new Error('skills/list listed no usable skill');
    const scratch = mkdtempSync(join(tmpdir(), 'autos-mcp-conformance-skill-'));
    try {
      await client.readSkill(first, { dir: join(scratch, 'skill') });
    } catch (error) {
      if (!isMcpError(error) || error.kind !== 'skill_rejected') throw error;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

const SCENARIOS: Record<string, Scenario> = {
  'sep-2640-client-no-prefetch': {
    run: async (client) => {
      await client.listSkills();
    },
  },
  'sep-2640-client-verify-digest': readFirstSkill,
  'sep-2640-client-verify-size': readFirstSkill,
  'sep-2640-client-verify-frontmatter': readFirstSkill,
  initialize: { run: async () => {} },
  tools_call: { run: (client) => listAndCall(client, 'add_numbers', { a: 5, b: 3 }) },
  'elicitation-sep1034-client-defaults': {
    options: { onElicitation: acceptDefaults() },
    run: (client) => listAndCall(client, 'test_client_elicitation_defaults'),
  },
  'sse-retry': { run: (client) => listAndCall(client, 'test_reconnection') },
  'request-metadata': {
    // Declare every client capability the library has, so the checks on their shapes run instead of skipping.
    options: {
      onElicitation: acceptDefaults(),
      onSampling: async () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'none' }),
      onListRoots: async () => ({ roots: [] }),
    },
    run: listOnly.run,
  },
  'json-schema-ref-no-deref': listOnly,
  'sep-2322-client-request-state': {
    options: { onElicitation: acceptDefaults({ confirmed: true }) },
    run: async (client) => {
      await client.listTools();
      for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated'])
        expectComplete(name, await client.callTool(name));
      // No resultType means complete: returned as is, never retried (S26/basic/index).
      await client.callTool('test_mrtr_no_result_type');
    },
  },
  'http-standard-headers': {
    run: async (client) => {
      for (const tool of await client.listTools())
        expectComplete(tool.name, await client.callTool(tool.name));
      const { resources } = (await client.request('resources/list')) as {
        resources?: Array<{ uri: string }>;
      };
      for (const resource of resources ?? []) await client.request('resources/read', { uri: resource.uri });
      const { prompts } = (await client.request('prompts/list')) as { prompts?: Array<{ name: string }> };
      for (const prompt of prompts ?? []) await client.request('prompts/get', { name: prompt.name });
    },
  },
  'http-custom-headers': {
    run: async (client, context) => {
      await client.listTools();
      const calls = (context['toolCalls'] ?? []) as Array<{
        name: string;
        arguments?: Record<string, unknown>;
      }>;
      for (const call of calls)
        expectComplete(call.name, await client.callTool(call.name, call.arguments ?? {}));
    },
  },
  'http-invalid-tool-headers': {
    run: async (client) => {
      const tools = await client.listTools();
      // The library leaves out the tools with invalid x-mcp-header annotations; call what is left.
      if (tools.map((t) => t.name).join() !== 'valid_tool')
        throw new Error(`expected only valid_tool, got ${tools.map((t) => t.name).join(', ')}`);
      expectComplete('valid_tool', await client.callTool('valid_tool', { region: 'us-west1' }));
    },
  },
  'json-schema-2020-12-preservation': {
    run: async (client) => {
      const tools = await client.listTools();
      const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
      if (!focal) throw new Error('json_schema_2020_12_tool is not listed');
      expectComplete(
        'json_schema_echo',
        await client.callTool('json_schema_echo', { schema: focal.inputSchema }),
      );
    },
  },
};

/** The Client ID Metadata Document URL the auth scenarios expect (auth/basic-cimd). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * The browser of the auth scenarios: their /authorize answers at once with a 302 to our loopback
 * callback, so "opening" the URL is one request whose Location we then visit.
 */
async function followRedirect(url: string): Promise<void> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null)
    throw new Error(`the authorization endpoint answered ${response.status}, not a redirect`);
  await (await fetch(location)).text();
}

/** The OAuth config of a scenario: the public API only; secrets and keys come from the runner's context. */
function authConfig(name: string, url: string, context: Record<string, unknown>): OAuthConfig {
  const text = (key: string) => (typeof context[key] === 'string' ? (context[key] as string) : '');
  const base = { url, dcr: true, clientMetadataUrl: CIMD_URL } as const;
  switch (name) {
    case 'auth/pre-registration':
      return { ...base, clientId: text('client_id'), clientSecret: text('client_secret') };
    case 'auth/client-credentials-basic':
      return {
        url,
        grant: 'client_credentials',
        clientId: text('client_id'),
        clientSecret: text('client_secret'),
      };
    case 'auth/client-credentials-jwt':
      return {
        url,
        grant: 'client_credentials',
        clientId: text('client_id'),
        privateKey: text('private_key_pem'),
        signingAlgorithm: text('signing_algorithm') || 'ES256',
      };
    case 'auth/enterprise-managed-authorization':
      return {
        url,
        grant: 'enterprise',
        clientId: text('client_id'),
        clientSecret: text('client_secret'),
        idp: {
          issuer: text('idp_issuer'),
          tokenEndpoint: text('idp_token_endpoint'),
          clientId: text('idp_client_id'),
          idToken: text('idp_id_token'),
        },
      };
    case 'auth/wif-jwt-bearer':
      return { url, grant: 'jwt_bearer', clientId: text('client_id'), assertion: text('valid_jwt') };
    default:
      if (text('client_id') !== '' && (name === 'auth/dpop' || name === 'auth/dpop-nonce'))
        return {
          url,
          grant: 'client_credentials',
          clientId: text('client_id'),
          ...(text('client_secret') ? { clientSecret: text('client_secret') } : {}),
          ...(text('private_key_pem') ? { privateKey: text('private_key_pem') } : {}),
        };
      return base;
  }
}

/**
 * The documented login-and-retry pattern (docs/oauth.md): on `auth_required` or `forbidden`, log in
 * with the error's challenge and try once more, a bounded number of times.
 */
async function withLogin<T>(auth: OAuth, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isMcpError(error) || (error.kind !== 'auth_required' && error.kind !== 'forbidden') || attempt > 3)
        throw error;
      await auth.login({ challenge: error.challenge });
    }
  }
}

async function runAuth(
  name: string,
  url: string,
  version: ProtocolVersion,
  context: Record<string, unknown>,
) {
  const auth = createOAuth(
    { clientMetadataUrl: false, ...authConfig(name, url, context) },
    { openUrl: followRedirect },
  );
  const client = await withLogin(auth, () => connect({ url, protocolVersion: version }, { auth }));
  try {
    const tools = await withLogin(auth, () => client.listTools());
    if (tools.some((tool) => tool.name === 'test-tool'))
      expectComplete('test-tool', await withLogin(auth, () => client.callTool('test-tool', {})));
  } finally {
    await client.close();
  }
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const name = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  const version = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] ?? '2025-11-25';
  const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as Record<string, unknown>;
  if (!url?.startsWith('http')) throw new Error('usage: client <server url>');
  if (version !== '2025-11-25' && version !== '2026-07-28') throw new Error(`unsupported wire ${version}`);
  if (name.startsWith('auth/')) {
    await runAuth(name, url, version, context);
    return 0;
  }
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${JSON.stringify(name)}`);
  // The library's default deadline (60 s), under the runner's timeout (scripts/conformance.sh): the runner
  // serves every scenario from one process, and starting ~40 of them at once can stall its first answers.
  const client = await connect(
    { url, protocolVersion: version satisfies ProtocolVersion },
    scenario.options ?? {},
  );
  try {
    await scenario.run(client, context);
  } finally {
    await client.close();
  }
  return 0;
}

process.on('exit', (code) => writeSync(1, `\n${EXIT_MARKER} ${code}\n`));
try {
  process.exitCode = await main();
} catch (error) {
  const { kind } = error as { kind?: string };
  console.error(`conformance client failed${kind ? ` (${kind})` : ''}: ${(error as Error).message}`);
  process.exitCode = 1;
}
