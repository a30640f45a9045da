/**
 * `session()` and `envFrom`, from the user's side, over real stdio servers: nothing happens before the
 * first call, one connection for many calls, a local override from settings merged over the default,
 * a failed connect that the next call retries, and variables resolved from settings or the parent
 * environment just before the spawn, with errors that name the source and never the value.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  callToolOnce,
  isMcpError,
  type ServerConfig,
  type StdioServerConfig,
  session,
} from '../../src/index.js';
import { openSettings } from '../../src/settings/index.js';
import { must } from '../helpers/must.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PRINT_ENV = path.join(ROOT, 'test/fixtures/print-env.mjs');
const DEMO = path.join(ROOT, 'examples/demo-server.mjs');

function textOf(result: unknown): string {
  const block = (result as { content?: Array<{ type: string; text?: string }> }).content?.[0];
  return block?.type === 'text' ? (block.text ?? '') : '';
}

async function envOf(
  config: ServerConfig,
  settings = openSettings({ backend: 'memory' }),
): Promise<Record<string, string>> {
  return JSON.parse(textOf(await callToolOnce(config, 'env', {}, { settings }))) as Record<string, string>;
}

describe('session()', () => {
  test('nothing happens until the first call; later calls reuse the one connection', async () => {
    let resolved = 0;
    const s = session(() => {
      resolved++;
      return { command: process.execPath, args: [DEMO] };
    });
    assert.equal(resolved, 0);
    assert.equal(s.started, false);
    const first = await s.listTools();
    const client = await s.client();
    await s.callTool('echo', { text: 'again' });
    assert.equal(await s.client(), client, 'the same client');
    assert.equal(resolved, 1);
    assert.ok(first.some((t) => t.name === 'echo'));
    const report = must(await s.close(), 'a close report');
    assert.equal(report.process?.activeProcesses, 0);
    await assert.rejects(s.listTools(), (error: unknown) => isMcpError(error) && error.kind === 'closed');
  });

  test('close() before any call starts nothing', async () => {
    let resolved = 0;
    const s = session(() => {
      resolved++;
      return { command: process.execPath, args: [DEMO] };
    });
    assert.equal(await s.close(), undefined);
    assert.equal(resolved, 0);
  });

  test('a failed connect leaves nothing behind; the next call tries again', async () => {
    const configs: ServerConfig[] = [
      { command: path.join(ROOT, 'no-such-server-binary') },
      { command: process.execPath, args: [DEMO] },
    ];
    const s = session(() => must(configs.shift(), 'a config'));
    await assert.rejects(s.listTools(), (error: unknown) => isMcpError(error) && error.kind === 'spawn');
    assert.ok((await s.listTools()).length > 0);
    await s.close();
  });

  test('configName: a local override from settings is merged over the default; missing means the default', async () => {
    const settings = openSettings({ backend: 'memory' });
    await settings.save('local', { args: [PRINT_ENV], env: { FROM_OVERRIDE: 'yes' } });
    const base: ServerConfig = { command: process.execPath, args: [DEMO], env: { FROM_DEFAULT: 'kept' } };
    const overridden = session(base, 'local', { settings });
    const env = JSON.parse(textOf(await overridden.callTool('env'))) as Record<string, string>;
    await overridden.close();
    assert.equal(env['FROM_OVERRIDE'], 'yes');
    assert.equal(env['FROM_DEFAULT'], 'kept', 'env merges one level deep');

    const plain = session(base, 'not-saved', { settings });
    assert.ok(
      (await plain.listTools()).some((t) => t.name === 'echo'),
      'the default demo server',
    );
    await plain.close();
  });

  test('a corrupt override is an error, never ignored', async () => {
    const store = (await import('../../src/store/memory.js')).memoryStore();
    await store.set('config broken', { env: 5 });
    const settings = openSettings({ backend: store });
    const s = session({ command: process.execPath, args: [DEMO] }, 'broken', { settings });
    await assert.rejects(s.listTools(), (error: unknown) => {
      assert.ok(isMcpError(error));
      assert.equal(error.kind, 'config');
      assert.match(error.message, /corrupt/);
      return true;
    });
  });
});

describe('envFrom', () => {
  test('resolves from settings (an env entry or a string field) and from the parent environment', async () => {
    const settings = openSettings({ backend: 'memory' });
    await settings.save('api', { env: { API_KEY: 'sk-from-settings-123' } });
    await settings.save('http-token', { authToken: 'tok-from-settings-456' });
    process.env['AUTOS_TEST_PARENT_VAR'] = 'from-parent';
    try {
      const env = await envOf(
        {
          command: process.execPath,
          args: [PRINT_ENV],
          envFrom: {
            KEY: { setting: 'api', key: 'API_KEY' },
            TOKEN: { setting: 'http-token', key: 'authToken' },
            PARENT: { env: 'AUTOS_TEST_PARENT_VAR' },
          },
        },
        settings,
      );
      assert.equal(env['KEY'], 'sk-from-settings-123');
      assert.equal(env['TOKEN'], 'tok-from-settings-456');
      assert.equal(env['PARENT'], 'from-parent');
      assert.equal(env['AUTOS_TEST_PARENT_VAR'], undefined, 'the parent variable itself is not passed on');
    } finally {
      delete process.env['AUTOS_TEST_PARENT_VAR'];
    }
  });

  test('a missing source is a config error naming the variable and the source, never a value', async () => {
    const settings = openSettings({ backend: 'memory' });
    await settings.save('api', { env: { OTHER: 'sk-planted-secret-789' } });
    const cases: Array<[StdioServerConfig['envFrom'], RegExp]> = [
      [{ KEY: { setting: 'api', key: 'API_KEY' } }, /"KEY".*"api".*"API_KEY"/],
      [{ KEY: { setting: 'nowhere', key: 'API_KEY' } }, /"KEY".*no settings named "nowhere"/],
      [{ KEY: { env: 'AUTOS_TEST_SURELY_UNSET' } }, /"KEY".*"AUTOS_TEST_SURELY_UNSET"/],
    ];
    for (const [envFrom, pattern] of cases) {
      const error = await envOf({ command: process.execPath, args: [PRINT_ENV], envFrom }, settings).catch(
        (e: unknown) => e,
      );
      assert.ok(isMcpError(error), String(error));
      assert.equal(error.kind, 'config');
      assert.match(error.message, pattern);
      assert.ok(!error.message.includes('sk-planted-secret-789'));
    }
  });

  test('envFrom is checked with the config: bad shapes and a variable in env as well', async () => {
    for (const envFrom of [
      { A: { setting: 'x' } },
      { A: { env: '' } },
      { 'A=B': { env: 'X' } },
      { A: 'x' },
    ]) {
      await assert.rejects(
        callToolOnce({ command: 'node', envFrom } as unknown as ServerConfig, 'env'),
        (error: unknown) => isMcpError(error) && error.kind === 'config',
      );
    }
    await assert.rejects(
      callToolOnce({ command: 'node', env: { A: '1' }, envFrom: { A: { env: 'HOME' } } }, 'env'),
      /also in env/,
    );
  });
});
