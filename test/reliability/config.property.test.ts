/**
 * Property tests of `normalizeConfig`: it never throws anything but `McpError` kind `config`, every valid
 * generated stdio and HTTP config normalizes (keeping what was given), and garbage — random values,
 * unknown keys, wrong types — is refused. Hostile configs (NUL, CR/LF, `=` and odd Unicode in env names
 * and values, header names and values and tokens; proxy and endpoint URLs with passwords; nested junk;
 * getters and Proxies that throw) are refused as `config` errors, through `connect`/`callTool`/`withClient`
 * too, and no secret they carry reaches the error's message, `util.inspect`, `String` or `toJSON()`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { normalizeConfig } from '../../src/config/index.js';
import { callToolOnce, connect, isMcpError, type ServerConfig, withClient } from '../../src/index.js';
import { RUNS } from './helpers.js';

function refusedAsConfig(run: () => unknown): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(isMcpError(error), `want McpError, got ${String(error)}`);
    assert.equal(error.kind, 'config');
    return true;
  });
}

/** Runs normalizeConfig and allows only success or McpError kind config. */
function neverThrowsOtherwise(value: unknown): void {
  try {
    normalizeConfig(value as ServerConfig);
  } catch (error) {
    assert.ok(isMcpError(error) && error.kind === 'config', `want McpError config, got ${String(error)}`);
  }
}

const noNul = fc.string({ maxLength: 20 }).filter((s) => !s.includes('\0'));
const common = {
  timeoutMs: fc.option(
    fc.oneof(
      fc.integer({ min: 1, max: 2_147_483_647 }),
      fc.double({ min: 0.001, max: 1e15, noNaN: true }),
      fc.constant(Number.POSITIVE_INFINITY),
    ),
    { nil: undefined },
  ),
  maxMessageBytes: fc.option(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { nil: undefined }),
  protocolVersion: fc.option(fc.constantFrom('2025-11-25' as const, '2026-07-28' as const, 'auto' as const), {
    nil: undefined,
  }),
  clientInfo: fc.option(
    fc.record(
      {
        name: fc.string(),
        version: fc.string(),
        title: fc.string(),
        description: fc.string(),
        websiteUrl: fc.webUrl(),
      },
      { requiredKeys: ['name', 'version'] },
    ),
    { nil: undefined },
  ),
};

const stdioConfig = fc.record(
  {
    command: noNul.filter((s) => s.trim() !== ''),
    args: fc.array(noNul, { maxLength: 5 }),
    // Any name but an empty one or one holding `=` or NUL; any value without NUL (newlines, Unicode fine).
    env: fc.dictionary(
      fc.string({ minLength: 1, maxLength: 10, unit: 'binary' }).filter((k) => !/[=\0]/.test(k)),
      fc.string({ maxLength: 20, unit: 'binary' }).filter((v) => !v.includes('\0')),
    ),
    graceMs: fc.double({ min: 0.001, max: 600_000, noNaN: true }),
    stderr: fc.constantFrom('capture' as const, 'inherit' as const, 'ignore' as const),
    isolate: fc.boolean(),
    cwd: noNul.filter((s) => s !== ''),
    ...common,
  },
  { requiredKeys: ['command'] },
);

const headerName = fc.stringMatching(/^x-[a-z0-9]{1,12}$/);
const headerValue = fc.stringMatching(/^[!-~]([ -~]{0,20}[!-~])?$/);
const httpConfig = fc.record(
  {
    url: fc.oneof(
      fc.nat(65535).map((port) => `http://127.0.0.1:${port}/mcp`),
      fc.webUrl({ validSchemes: ['https'], withQueryParameters: true }),
    ),
    headers: fc.dictionary(headerName, headerValue, { maxKeys: 4 }),
    authToken: fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,40}$/),
    ca: fc.array(
      fc
        .base64String({ minLength: 4, maxLength: 64 })
        .map((body) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`),
      { maxLength: 2 },
    ),
    proxy: fc
      .tuple(
        fc.constantFrom('http', 'https'),
        fc.option(fc.stringMatching(/^[a-z0-9]{1,8}:[a-z0-9%]{0,12}@$/), { nil: '' }),
        fc.domain(),
        fc.nat(65535),
      )
      .map(([scheme, userinfo, host, port]) => `${scheme}://${userinfo}${host}:${port}`),
    useEnvProxy: fc.boolean(),
    ...common,
  },
  { requiredKeys: ['url'] },
);

describe('normalizeConfig', () => {
  it('throws nothing but McpError kind config, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withNullPrototype: true,
          withBoxedValues: true,
        }),
        neverThrowsOtherwise,
      ),
      { numRuns: RUNS },
    );
  });

  it('throws nothing but McpError kind config for configs with random values under the real keys', () => {
    const key = fc.constantFrom(
      'command',
      'args',
      'env',
      'cwd',
      'stderr',
      'isolate',
      'url',
      'headers',
      'authToken',
      'ca',
      'proxy',
      'useEnvProxy',
      'timeoutMs',
      'maxMessageBytes',
      'protocolVersion',
      'clientInfo',
    );
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.anything({ withBigInt: true, withNullPrototype: true })),
        neverThrowsOtherwise,
      ),
      { numRuns: RUNS },
    );
  });

  it('normalizes every valid generated stdio config, keeping command and args', () => {
    fc.assert(
      fc.property(stdioConfig, (config) => {
        const normalized = normalizeConfig(config);
        assert.equal(normalized.transport, 'stdio');
        if (normalized.transport !== 'stdio') return;
        assert.equal(normalized.stdio.command, config.command);
        assert.deepEqual(normalized.stdio.args, config.args ?? []);
        assert.equal(normalized.timeoutMs, config.timeoutMs ?? 60_000);
        assert.deepEqual(normalized.stdio.env, { ...config.env });
      }),
      { numRuns: RUNS },
    );
  });

  it('normalizes every valid generated HTTP config, and its target never holds the token or query', () => {
    fc.assert(
      fc.property(httpConfig, (config) => {
        const normalized = normalizeConfig(config);
        assert.equal(normalized.transport, 'http');
        if (config.authToken && config.authToken.length > 6) {
          assert.ok(!normalized.target.includes(config.authToken), 'target holds the token');
        }
        assert.ok(!normalized.target.includes('?'), `target holds a query: ${normalized.target}`);
        if (normalized.transport !== 'http') return;
        assert.equal(normalized.http.proxy, config.proxy);
        assert.deepEqual(normalized.http.ca, config.ca);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses configs with neither or both of command and url', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().filter((k) => k !== 'command' && k !== 'url'),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        fc.boolean(),
        (garbage, both) => {
          const config = both ? { ...garbage, command: 'node', url: 'https://example.com/mcp' } : garbage;
          refusedAsConfig(() => normalizeConfig(config as unknown as ServerConfig));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a valid config with one unknown key or one wrong-typed field', () => {
    const wrong = fc.oneof(
      fc.constant(null),
      fc.integer(),
      fc.boolean(),
      fc.constant([1]),
      fc.constant({ a: 1 }),
    );
    fc.assert(
      fc.property(
        fc.oneof(stdioConfig as fc.Arbitrary<ServerConfig>, httpConfig as fc.Arbitrary<ServerConfig>),
        fc.oneof(
          fc.string({ minLength: 1 }).map((k) => ({ key: `unknown_${k}`, value: 1 as unknown })),
          fc
            .constantFrom('timeoutMs', 'maxMessageBytes', 'protocolVersion')
            .map((key) => ({ key, value: 'x' as unknown })),
          fc.tuple(fc.constantFrom('clientInfo'), wrong).map(([key, value]) => ({ key, value })),
          fc.constantFrom(
            { key: 'timeoutMs', value: 0 },
            { key: 'timeoutMs', value: -1 },
            { key: 'timeoutMs', value: Number.NaN },
            { key: 'timeoutMs', value: Number.NEGATIVE_INFINITY },
            { key: 'timeoutMs', value: '1000' },
            { key: 'maxMessageBytes', value: 1.5 },
            { key: 'maxMessageBytes', value: 2 ** 31 },
          ),
        ),
        (config, { key, value }) => {
          refusedAsConfig(() => normalizeConfig({ ...config, [key]: value } as ServerConfig));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Hostile configs: every one holds at least one field that must be refused, and secrets all over.

/** A secret: distinctive, and plain enough that the redactor alone would not hide it. */
const secret = fc.stringMatching(/^[a-z]{12}$/).map((s) => `qx${s}`);
/** Characters that break a bearer token (everything but printable ASCII without space). */
const notInToken = fc.constantFrom(
  '\0',
  '\r',
  '\n',
  '\r\n',
  ' ',
  '\t',
  '\u007f',
  '\u0085',
  'é',
  '\u2028',
  '😀',
  '\ud800',
);
/** Characters that break a header value (TAB and space are allowed there). */
const notInHeaderValue = notInToken.filter((c) => c !== ' ' && c !== '\t');
/** Characters that end a header name's token. */
const notInHeaderName = fc.constantFrom(':', ' ', '\r\n', '\0', '(', '"', 'é', '😀', '=', '/');
/** Characters that an env name may hold (not refused), for noise around the refused ones. */
const oddButValid = fc.constantFrom('\r', '\n', 'é', '😀', '\u2028', ' ', '-', '.');

type Field = readonly [key: string, value: unknown];
/** The odd characters a case is built from: one that breaks a token, a header value, a header name. */
interface Chars {
  token: string;
  value: string;
  name: string;
  /** Allowed in an env name, for noise next to what is refused. */
  odd: string;
}
type Make = (s: string, c: Chars) => Field;

/** Each one, set on a valid config of its transport, makes it invalid. */
const STDIO_BAD: Make[] = [
  (s) => ['env', { [`TOKEN=${s}`]: s }],
  (s) => ['env', { [`=${s}`]: s }],
  (s) => ['env', { [`API_KEY\0${s}`]: s }],
  (s) => ['env', { '': s }],
  (s, c) => ['env', { [`V${c.odd}`]: `${s}\0${s}` }],
  (s) => ['env', { SECRET: `\0${s}` }],
  (s) => ['env', { A: { nested: [s] } }],
  (s) => ['env', [s]],
  (s) => ['env', s],
  (s) => ['cwd', `/tmp/${s}\0`],
  (s) => ['args', [`--token=${s}`, `${s}\0`]],
  (s) => ['args', `--token=${s}`],
  (s) => ['command', `${s}\0`],
  (s) => ['stderr', s],
  () => ['graceMs', Number.POSITIVE_INFINITY],
  () => ['graceMs', 0],
];

const HTTP_BAD: Make[] = [
  (s, c) => ['authToken', `${s}${c.token}`],
  (s, c) => ['authToken', `${c.token}${s}`],
  (s) => ['authToken', `${s}\n`],
  (s) => ['authToken', `Bearer ${s}`],
  () => ['authToken', ''],
  (s) => ['authToken', [s]],
  (s) => ['authToken', { token: s }],
  (s, c) => ['headers', { 'X-Api-Key': `${s}${c.value}` }],
  (s) => ['headers', { 'X-Api-Key': `${s}\r\nX-Injected: ${s}` }],
  (s) => ['headers', { 'X-Api-Key': `${s}\0` }],
  (s) => ['headers', { 'X-Api-Key': `${s}é` }],
  (s, c) => ['headers', { [`X-Key${c.name}${s}`]: s }],
  (s, c) => ['headers', { [`${c.name}${s}`]: s }],
  (s) => ['headers', { [`X-Api-Key: ${s}`]: s }],
  (s) => ['headers', { '': s }],
  (s) => ['headers', { 'Mcp-Session-Id': s }],
  (s) => ['headers', { Authorization: `Bearer ${s}` }],
  (s) => ['headers', { 'X-Dup': s, 'x-dup': s }],
  (s) => ['headers', { 'X-Api-Key': { value: s } }],
  (s) => ['headers', [s]],
  (s) => ['proxy', `http://user:${s}@`],
  (s) => ['proxy', `socks5://user:${s}@127.0.0.1:1080`],
  (s) => ['proxy', `ftp://user:${s}@127.0.0.1/`],
  (s) => ['proxy', `http://user:${s}@[::1`],
  (s) => ['proxy', `http://user:${s}@127.0.0.1:99999/`],
  (s) => ['proxy', `http://user:${s}@pro xy:8080/`],
  (s) => ['proxy', `http://user:${s}@127.0.0.1:8080/?key=${s}\n`],
  (s) => ['proxy', `http://user:${s}\0@127.0.0.1:8080/`],
  (s) => ['proxy', s],
  (s) => ['proxy', `//user:${s}@127.0.0.1:8080`],
  (s) => ['proxy', { href: `http://user:${s}@127.0.0.1:8080` }],
  (s) => ['url', `https://user:${s}@127.0.0.1/mcp`],
  (s) => ['url', `http://example.com/mcp?token=${s}`],
  (s) => ['url', `https://exa mple.com/mcp?token=${s}`],
  (s) => ['url', `ftp://127.0.0.1/mcp?token=${s}`],
  (s) => ['url', `javascript:${s}`],
  (s) => ['url', `https://127.0.0.1/mcp?token=${s}\n`],
  (s) => ['url', `https://user:${s}@[::1/mcp`],
  (s) => ['url', s],
  (s) => ['ca', [`-----BEGIN PRIVATE KEY-----\n${s}\n-----END PRIVATE KEY-----\n`]],
  (s) => ['ca', [`/etc/ssl/${s}.pem`]],
  (s) => ['ca', [s, 1]],
];

/** Invalid on either transport. */
const ANY_BAD: Make[] = [
  () => ['timeoutMs', Number.NaN],
  () => ['timeoutMs', -1],
  () => ['timeoutMs', 0],
  (s) => ['timeoutMs', s],
  (s) => ['clientInfo', { name: s, version: 1 }],
  (s) => ['clientInfo', { name: 'n', version: 'v', token: s }],
  (s) => ['clientInfo', { name: `${s}\0`, version: 'v' }],
  (s) => ['clientInfo', { name: 'n', version: 'v', websiteUrl: `javascript:${s}` }],
  (s) => ['protocolVersion', s],
  (s) => ['tokn', s],
  (s) => ['secret', { nested: { deeper: [s, { s }] } }],
  (s) => ['env', new Map([['TOKEN', s]])],
  (s) => ['headers', new URLSearchParams({ token: s })],
  (s) => ['authToken', () => s],
  (s) => ['timeoutMs', BigInt(s.length)],
  (s) => [
    'authToken',
    Object.defineProperty({}, 'x', {
      enumerable: true,
      get: () => {
        throw new Error(`getter leaked ${s}`);
      },
    }),
  ],
];

/** Wraps a whole config so that reading it throws an error quoting a secret. */
const HOSTILE_WRAPPERS: Array<(config: Record<string, unknown>, s: string) => unknown> = [
  (config, s) =>
    new Proxy(config, {
      ownKeys: () => {
        throw new TypeError(`ownKeys leaked ${s}`);
      },
    }),
  (config, s) =>
    new Proxy(config, {
      getOwnPropertyDescriptor: () => {
        throw new Error(`descriptor leaked ${s}`);
      },
    }),
  (config, s) =>
    new Proxy(config, {
      getPrototypeOf: () => {
        throw new Error(`prototype leaked ${s}`);
      },
    }),
  (config) => {
    const { proxy, revoke } = Proxy.revocable(config, {});
    revoke();
    return proxy;
  },
  (config, s) =>
    Object.defineProperty({ ...config }, 'authToken', {
      enumerable: true,
      get: () => {
        throw new Error(`getter leaked ${s}`);
      },
    }),
];

interface HostileCase {
  config: unknown;
  secrets: string[];
}

/** Valid configs with secrets where secrets belong; `command`/`url` go nowhere even if a check slipped. */
function validBase(transport: 'stdio' | 'http', s: readonly string[]): Record<string, unknown> {
  const [a = '', b = '', c = '', d = ''] = s;
  return transport === 'stdio'
    ? {
        command: 'autos-mcp-no-such-command-for-tests',
        args: [`--token=${a}`],
        env: { API_KEY: b, OTHER: `${c}\nline two é` },
      }
    : {
        url: `https://127.0.0.1:9/mcp?token=${a}`,
        authToken: b,
        headers: { 'X-Api-Key': c },
        proxy: `http://proxyuser:${d}@127.0.0.1:9/`,
      };
}

const make = (list: Make[]) => fc.constantFrom(...list);
const hostileCase: fc.Arbitrary<HostileCase> = fc
  .record({
    transport: fc.constantFrom('stdio' as const, 'http' as const),
    secrets: fc.array(secret, { minLength: 8, maxLength: 8 }),
    chars: fc.record({ token: notInToken, value: notInHeaderValue, name: notInHeaderName, odd: oddButValid }),
    stdio: fc.array(fc.oneof(make(STDIO_BAD), make(ANY_BAD)), { minLength: 1, maxLength: 3 }),
    http: fc.array(fc.oneof(make(HTTP_BAD), make(ANY_BAD)), { minLength: 1, maxLength: 3 }),
    wrapper: fc.option(fc.constantFrom(...HOSTILE_WRAPPERS), { freq: 4, nil: undefined }),
  })
  .map(({ transport, secrets, chars, stdio, http, wrapper }) => {
    const config = validBase(transport, secrets);
    const injections = transport === 'stdio' ? stdio : http;
    injections.forEach((inject, i) => {
      const [key, value] = inject(secrets[4 + i] ?? '', chars);
      config[key] = value;
    });
    const s = secrets[7] ?? '';
    return { config: wrapper === undefined ? config : wrapper(config, s), secrets };
  });

/** Every text an error is seen through: none may hold a secret. */
function views(error: unknown): string[] {
  assert.ok(isMcpError(error), `want an McpError, got ${inspect(error)}`);
  return [
    error.message,
    String(error),
    error.stack ?? '',
    inspect(error, { depth: 10 }),
    inspect(error, { depth: 10, showHidden: true }),
    JSON.stringify(error.toJSON()),
  ];
}

function assertConfigErrorWithoutSecrets(error: unknown, secrets: readonly string[]): void {
  assert.ok(isMcpError(error), `want an McpError, got ${String(error)}`);
  assert.equal(error.kind, 'config', error.message);
  assert.equal(error.delivery, 'not_sent');
  assert.equal(error.cause, undefined, 'a config error carries no cause');
  for (const text of views(error)) {
    for (const s of secrets) assert.ok(!text.includes(s), `the error shows a secret: ${text}`);
  }
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  assert.fail('want a config error, got a normalized config');
}

describe('normalizeConfig on hostile configs', () => {
  it('refuses every hostile config with a config McpError that shows none of its secrets', () => {
    fc.assert(
      fc.property(hostileCase, ({ config, secrets }) => {
        assertConfigErrorWithoutSecrets(
          thrownBy(() => normalizeConfig(config as ServerConfig)),
          secrets,
        );
      }),
      { numRuns: RUNS * 3, seed: 0x5eed },
    );
  });

  it('connect, callTool and withClient reject the same configs the same way, starting nothing', async () => {
    await fc.assert(
      fc.asyncProperty(hostileCase, fc.constantFrom('connect', 'callTool', 'withClient'), async (c, via) => {
        let ran = false;
        const config = c.config as ServerConfig;
        const attempt =
          via === 'connect'
            ? connect(config)
            : via === 'callTool'
              ? callToolOnce(config, 'echo', { text: 'hi' })
              : withClient(config, () => {
                  ran = true;
                });
        const error = await attempt.then(
          () => assert.fail('want a rejection'),
          (e: unknown) => e,
        );
        assert.equal(ran, false, 'withClient ran its function');
        assertConfigErrorWithoutSecrets(error, c.secrets);
      }),
      { numRuns: Math.ceil(RUNS / 3), seed: 0x5eed },
    );
  });
});
