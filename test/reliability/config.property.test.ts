/**
 * Property tests of `normalizeConfig`: it never throws anything but `McpError` kind `config`, every valid
 * generated stdio and HTTP config normalizes (keeping what was given), and garbage — random values,
 * unknown keys, wrong types — is refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isMcpError, normalizeConfig, type ServerConfig } from '../../src/index.js';
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
  timeoutMs: fc.option(fc.integer({ min: 1, max: 2_147_483_647 }), { nil: undefined }),
  maxMessageBytes: fc.option(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { nil: undefined }),
  protocolVersion: fc.option(fc.constantFrom('2025-11-25' as const, '2026-07-28' as const, 'auto' as const), {
    nil: undefined,
  }),
  clientInfo: fc.option(fc.record({ name: fc.string(), version: fc.string() }), { nil: undefined }),
};

const stdioConfig = fc.record(
  {
    command: noNul.filter((s) => s.trim() !== ''),
    args: fc.array(noNul, { maxLength: 5 }),
    env: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 })),
    stderr: fc.constantFrom('capture' as const, 'inherit' as const, 'ignore' as const),
    isolate: fc.boolean(),
    cwd: fc.string({ minLength: 1, maxLength: 20 }),
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
    ca: fc.array(fc.string(), { maxLength: 2 }),
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
            { key: 'timeoutMs', value: 2 ** 31 },
            { key: 'timeoutMs', value: 1.5 },
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
