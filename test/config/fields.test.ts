/**
 * One table of config rules, every entry point agreeing: each good and bad value of every field is judged
 * by `connect()` itself (stdio and shared fields), `normalizeConfig`, the worker's `open()`, settings
 * (`save` to a JSON file, then `load`), `mergeConfig` (an override over a default) and, for the shared
 * fields, a connection given in options. Each must accept exactly the good values and refuse the bad ones
 * with a `config` error — `connectTimeoutMs: Infinity` ("no deadline") included, which `open()` refused.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import vm from 'node:vm';
import { maskConfig } from '../../src/cli/settings/mask.js';
import {
  CONFIG_FIELDS,
  type ConfigFieldName,
  fieldRule,
  mergeConfig,
  normalizeBaseConfig,
  normalizeConfig,
  secretValues,
} from '../../src/config/index.js';
import { connect, isMcpError, type ServerConfig } from '../../src/index.js';
import { openSettings, type Settings } from '../../src/settings/index.js';
import { open } from '../../src/worker/index.js';

const STDIO_BASE = { command: '/nonexistent/autos-mcp-fields-check' };
const HTTP_BASE = { url: 'https://127.0.0.1:9/mcp' };
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const PIN_DIGEST = `sha256:${'0'.repeat(64)}`;

/** Per field: values every entry point must accept, and values every one must refuse. */
const CASES: { readonly [K in ConfigFieldName]: { good: unknown[]; bad: unknown[] } } = {
  timeoutMs: { good: [1, 250.5, 1e12, Infinity], bad: [0, -1, Number.NaN, -Infinity, '5', null] },
  connectTimeoutMs: { good: [1, 1e12, Infinity], bad: [0, -1, Number.NaN, -Infinity, '5', null] },
  maxMessageBytes: { good: [1, 1024], bad: [0, 1.5, Infinity, 2 ** 31, '1'] },
  maxResultChars: { good: [512, 20_000, 2 ** 31 - 1], bad: [0, 511, 1.5, Infinity, 2 ** 31, '1000'] },
  protocolVersion: { good: ['2025-11-25', '2026-07-28', 'auto'], bad: ['2024-01-01', 5] },
  clientInfo: {
    good: [
      { name: 'a', version: '1' },
      { name: 'a', version: '1', websiteUrl: 'https://a.example' },
    ],
    bad: [{ name: 'a' }, { name: 'a', version: '1', extra: 'x' }, 'a'],
  },
  tools: {
    good: [{ allow: ['a*'] }, { deny: [] }, { approve: ['delete_*'] }],
    bad: [{ allow: 'a' }, { other: [] }, [], { approve: 'a' }, { approve: ['a\u0000'] }],
  },
  pin: { good: [{ t: PIN_DIGEST }, { t: { digest: PIN_DIGEST } }], bad: [{ t: 'md5:0' }, ['t']] },
  extensions: {
    good: [[], ['io.modelcontextprotocol/tasks', 'com.example/x']],
    bad: [
      'io.modelcontextprotocol/tasks',
      ['tasks'],
      [5],
      Array.from({ length: 33 }, (_, i) => `com.example/e${i}`),
    ],
  },
  command: { good: ['/nonexistent/other-check'], bad: ['', ' ', 'a\0b', 5] },
  args: { good: [[], ['a', 'b c']], bad: ['a', ['a\0'], [1]] },
  cwd: { good: ['/'], bad: ['', 'a\0b', 5] },
  env: { good: [{}, { A: '1' }], bad: [{ 'A=B': '1' }, { A: 1 }, { A: 'x\0' }, ['A']] },
  envFrom: {
    good: [{ B: { env: 'PATH' } }],
    bad: [{ B: { env: '' } }, { B: { setting: 'x' } }, { 'B=C': { env: 'PATH' } }, 'PATH'],
  },
  stderr: { good: ['capture', 'inherit', 'ignore'], bad: ['pipe', 1] },
  isolate: { good: [false], bad: ['yes', 1] },
  graceMs: { good: [1, 600_000], bad: [0, Infinity, 600_001, '1'] },
  maxSkippedLines: { good: [0, 10], bad: [-1, 1.5, Infinity] },
  maxSkippedBytes: { good: [0, 10], bad: [-1, 1.5, Infinity] },
  maxQueuedBytes: { good: [0, 10], bad: [-1, 1.5, Infinity] },
  url: {
    good: ['https://127.0.0.1:9/other', 'http://localhost:9/mcp'],
    bad: ['http://example.com/mcp', 5, ''],
  },
  authToken: { good: ['abc'], bad: ['', 'a\nb', 5] },
  headers: { good: [{ 'X-A': 'b' }], bad: [{ 'Mcp-Session-Id': 'x' }, { X: 1 }, 'x'] },
  ca: { good: [[PEM]], bad: [['not pem'], PEM] },
  proxy: { good: ['http://127.0.0.1:9'], bad: ['ftp://127.0.0.1', 5] },
  useEnvProxy: { good: [false], bad: ['true', 1] },
};

/** A judgement: `true` accepted, `false` refused with a `config` error; anything else fails the test. */
type Judge = (config: object, field: ConfigFieldName) => Promise<boolean>;

function get(config: object, key: string): unknown {
  return (config as Record<string, unknown>)[key];
}

function configRefusal(error: unknown): false {
  if (isMcpError(error) && error.kind === 'config') return false;
  throw error;
}

let dir: string;
let settings: Settings;
let saved = 0;

async function byNormalize(config: object): Promise<boolean> {
  try {
    normalizeConfig(config as ServerConfig);
    return true;
  } catch (error) {
    return configRefusal(error);
  }
}

const JUDGES: Record<string, Judge> = {
  "normalizeConfig (connect()'s normalizer)": byNormalize,
  // The server is never reached: the command does not exist, the URL's port is closed. An accepted
  // config fails later, by another kind than `config`.
  'connect()': async (config) => {
    if (get(config, 'url') !== undefined) return byNormalize(config);
    try {
      const client = await connect(config as ServerConfig, { timeoutMs: 10_000 });
      await client.close();
      return true;
    } catch (error) {
      return !(isMcpError(error) && error.kind === 'config');
    }
  },
  // An aborted signal stops `open()` right after it judged the config, before any thread starts.
  "the worker's open()": async (config) => {
    try {
      await open(config as ServerConfig, { signal: AbortSignal.abort() });
      assert.fail('want a rejection');
    } catch (error) {
      if (isMcpError(error) && error.kind === 'cancelled') return true;
      return configRefusal(error);
    }
  },
  // The field alone, as a partial config: saved to a JSON file and read back.
  'settings save + load': async (config, field) => {
    const name = `case-${saved++}`;
    const part = { [field]: get(config, field) };
    try {
      await settings.save(name, part);
    } catch (error) {
      return configRefusal(error);
    }
    const loaded = await settings.load(name);
    assert.deepEqual(loaded, part, `${field}: read back as saved`);
    return true;
  },
  'mergeConfig over a default': async (config, field) => {
    const base: ServerConfig = get(config, 'url') === undefined ? STDIO_BASE : HTTP_BASE;
    return byNormalize(mergeConfig(base, { [field]: get(config, field) }));
  },
};

/** The config a case is judged in: the field over the base of its kind. */
function caseConfig(field: ConfigFieldName, value: unknown): object {
  const base = CONFIG_FIELDS[field].kind === 'http' ? HTTP_BASE : STDIO_BASE;
  return { ...base, [field]: value };
}

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'autos-mcp-fields-'));
  settings = openSettings({ backend: 'plaintext-file', dir });
});
after(() => rm(dir, { recursive: true, force: true }));

describe('every entry point judges every field by the one table', () => {
  for (const field of Object.keys(CASES) as ConfigFieldName[]) {
    test(`${field}: the same values accepted and refused everywhere`, async () => {
      const { good, bad } = CASES[field];
      for (const [want, values] of [
        [true, good],
        [false, bad],
      ] as const) {
        for (const value of values) {
          const config = caseConfig(field, value);
          for (const [where, judge] of Object.entries(JUDGES)) {
            const got = await judge(config, field);
            assert.equal(
              got,
              want,
              `${where}: ${field} = ${String(value)}: want ${want ? 'accepted' : 'refused'}`,
            );
          }
          if (CONFIG_FIELDS[field].kind === 'both') {
            let got = true;
            try {
              normalizeBaseConfig({ [field]: value }, 'memory');
            } catch (error) {
              got = configRefusal(error);
            }
            assert.equal(got, want, `a connection in options: ${field} = ${String(value)}`);
          }
        }
      }
    });
  }

  test('the table has every field of a config, and nothing else', () => {
    assert.deepEqual(Object.keys(CONFIG_FIELDS).sort(), Object.keys(CASES).sort());
    assert.equal(fieldRule('constructor'), undefined);
    assert.equal(fieldRule('__proto__'), undefined);
  });

  test('a key no server config has, or a field of the other transport, is refused everywhere', async () => {
    for (const config of [
      { ...STDIO_BASE, nope: 1 },
      { ...STDIO_BASE, headers: { A: 'b' } },
      { ...HTTP_BASE, env: { A: 'b' } },
    ]) {
      for (const [where, judge] of Object.entries(JUDGES)) {
        if (where.startsWith('settings') || where.startsWith('mergeConfig')) continue;
        assert.equal(await judge(config, 'command'), false, `${where}: ${JSON.stringify(config)}`);
      }
    }
    await assert.rejects(settings.save('mixed', { command: 'x', headers: { A: 'b' } }), /mixes stdio fields/);
    await assert.rejects(settings.save('unknown', { nope: 1 }), /unknown key "nope"/);
  });
});

describe('what is plain data is judged the same everywhere', () => {
  test("a Proxy is refused, a node:vm context's object accepted, by every entry point", async () => {
    const proxy = new Proxy({ ...STDIO_BASE }, {});
    const realm = vm.runInNewContext(`({ command: ${JSON.stringify(STDIO_BASE.command)}, args: ['a'] })`);
    for (const [config, want] of [
      [proxy, false],
      [realm, true],
    ] as const) {
      for (const [where, judge] of Object.entries(JUDGES)) {
        if (where.startsWith('settings') || where.startsWith('mergeConfig')) continue;
        assert.equal(await judge(config, 'command'), want, `${where}: want ${want ? 'accepted' : 'refused'}`);
      }
      const saved = settings.save(`realm-${want}`, config);
      await (want ? assert.doesNotReject(saved) : assert.rejects(saved, /Proxy/));
    }
  });
});

describe('secrets are the fields the table marks secret', () => {
  const config = {
    command: 'x',
    env: { A: 'env-secret' },
    envFrom: { B: { env: 'PATH' } },
    headers: { H: 'header-secret' },
    authToken: 'token-secret',
    proxy: 'http://user:proxy-secret@127.0.0.1:9',
    cwd: '/not-secret',
  };

  test('the CLI masks them, and only them', () => {
    const shown = JSON.stringify(maskConfig(config));
    for (const secret of ['env-secret', 'header-secret', 'token-secret', 'proxy-secret'])
      assert.doesNotMatch(shown, new RegExp(secret));
    assert.match(shown, /not-secret/);
    assert.match(shown, /PATH/);
  });

  test('the client registers them as known secrets, and only them', () => {
    assert.deepEqual([...new Set(secretValues(config))].sort(), [
      'env-secret',
      'header-secret',
      'proxy-secret',
      'token-secret',
      'user',
    ]);
  });
});
