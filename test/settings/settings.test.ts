/**
 * autos-mcp/settings over each backend: memory, plaintext-file (a temp dir; the file is 0600) and keyring
 * (a real gnome-keyring in a private D-Bus session, test/helpers/keyring-session.ts). The same scenario
 * (fixtures/settings-worker.ts) runs over each: partial configs round-trip, a missing name is an error
 * unless allowed, `list`, `remove`, invalid configs are refused naming the field, a corrupt stored value is
 * an error and never returned, and no planted secret appears in any error.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openSettings } from '../../src/settings/index.js';
import { memoryStore, plaintextFileStore } from '../../src/store/index.js';
import { runInKeyringSession, workerJson } from '../helpers/keyring-session.js';
import { must } from '../helpers/must.js';
import {
  INVALID,
  type Outcome,
  runSettingsScenario,
  SAMPLES,
  type ScenarioReport,
  SECRET_PLAIN,
  SECRET_SK,
  SETTINGS_WORKER,
} from './fixtures/settings-worker.js';

const SECRETS = [SECRET_SK, SECRET_PLAIN, 'tok-velvet'];

function failed(
  result: Outcome,
  what: string,
): { kind: string | undefined; message: string; causes: string[] } {
  assert.equal(result.ok, false, `${what}: want an error, got ${JSON.stringify(result)}`);
  if (result.ok) throw new Error('unreachable');
  return result;
}

function value(result: Outcome, what: string): unknown {
  if (!result.ok) assert.fail(`${what}: want a value, got ${result.kind} error: ${result.message}`);
  return result.value;
}

/** Every error text in the report (messages and causes). */
function errorTexts(report: ScenarioReport): string[] {
  const all: Outcome[] = [
    ...Object.values(report.loaded),
    report.listAfterSave,
    report.loadMissing,
    report.loadMissingAllowed,
    ...report.invalid.flatMap((i) => [i.save, i.after]),
    report.corrupt,
    report.corruptSecret,
    report.corruptAllowMissing,
    report.corruptRemove,
    ...(report.nonJson === undefined ? [] : [report.nonJson]),
    report.removeFirst,
    report.removeAgain,
    report.loadRemoved,
    report.listAfterRemove,
  ];
  return all.flatMap((o) => (o.ok ? [] : [o.message, ...o.causes]));
}

function checkReport(report: ScenarioReport, expectNonJson: boolean): void {
  for (const [name, config] of Object.entries(SAMPLES))
    assert.deepEqual(value(must(report.loaded[name], `load ${name}`), `load ${name}`), config, name);

  assert.deepEqual(value(report.listAfterSave, 'list'), Object.keys(SAMPLES).sort());

  const missing = failed(report.loadMissing, 'load(missing)');
  assert.equal(missing.kind, 'config');
  assert.match(missing.message, /no settings named "missing"/);
  assert.equal(value(report.loadMissingAllowed, 'load(missing, true)'), null);

  assert.equal(report.invalid.length, INVALID.length);
  for (const [i, { save, after }] of report.invalid.entries()) {
    const { names } = must(INVALID[i], `INVALID[${i}]`);
    const error = failed(save, `save of invalid config ${i}`);
    assert.equal(error.kind, 'config', error.message);
    assert.ok(error.message.includes(names), `invalid ${i}: "${error.message}" should name ${names}`);
    assert.equal(value(after, `load of refused invalid-${i}`), null, 'a refused config is not stored');
  }

  const corrupt = failed(report.corrupt, 'load(corrupt)');
  assert.equal(corrupt.kind, 'config');
  assert.match(corrupt.message, /corrupt/);
  assert.match(corrupt.message, /env/);
  const corruptSecret = failed(report.corruptSecret, 'load(corrupt2)');
  assert.equal(corruptSecret.kind, 'config');
  assert.match(corruptSecret.message, /corrupt.*authToken/);
  // allowMissing covers a missing value only: a corrupt one is still an error, never returned or null.
  const corruptAllowed = failed(report.corruptAllowMissing, 'load(corrupt, true)');
  assert.equal(corruptAllowed.kind, 'config');
  assert.match(corruptAllowed.message, /corrupt/);
  assert.equal(value(report.corruptRemove, 'remove(corrupt)'), true);

  if (expectNonJson) {
    const nonJson = failed(must(report.nonJson, 'the non-JSON outcome'), 'load(nonjson)');
    assert.equal(nonJson.kind, 'config');
    assert.match(nonJson.message, /corrupt/);
    assert.ok(!nonJson.message.includes('not json'), `the stored text is not shown: ${nonJson.message}`);
  }

  assert.equal(value(report.removeFirst, 'remove'), true);
  assert.equal(value(report.removeAgain, 'remove again'), false);
  assert.equal(value(report.loadRemoved, 'load of removed'), null);
  assert.deepEqual(
    value(report.listAfterRemove, 'list after remove'),
    Object.keys(SAMPLES)
      .filter((n) => n !== 'github-env')
      .sort(),
  );

  const texts = errorTexts(report);
  assert.ok(texts.length >= INVALID.length + 3, 'the scenario produced its errors');
  for (const text of texts)
    for (const secret of SECRETS) assert.ok(!text.includes(secret), `a secret in an error: ${text}`);
}

test('memory backend: the settings scenario', async () => {
  // `backend: 'memory'` keeps its store private, so the scenario also runs over a memory store passed in
  // (whose raw side can be corrupted); the by-name backend is checked for the round trip.
  const byName = openSettings({ backend: 'memory' });
  assert.equal(byName.description, 'memory');
  await byName.save('a', { env: { API_KEY: SECRET_SK } });
  assert.deepEqual(await byName.load('a'), { env: { API_KEY: SECRET_SK } });
  assert.deepEqual(await byName.list(), ['a']);
  assert.equal(await byName.remove('a'), true);
  assert.equal(await byName.remove('a'), false);
  assert.deepEqual(await openSettings({ backend: 'memory' }).list(), [], 'each memory backend is its own');

  const raw = memoryStore();
  checkReport(await runSettingsScenario(openSettings({ backend: raw }), raw), false);
});

test('plaintext-file backend: the settings scenario, in a private 0600 file', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'autos-mcp-settings-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const settings = openSettings({ backend: 'plaintext-file', dir });
  const report = await runSettingsScenario(settings, plaintextFileStore('settings', { dir }));
  checkReport(report, false);

  const file = path.join(dir, 'settings.json');
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  assert.deepEqual(stored['config remote.token'], SAMPLES['remote.token'], 'stored under "config <name>"');
  assert.equal(stored['config corrupt'], undefined, 'the corrupt value was removed');

  // A second opening over the same dir sees the same settings.
  assert.deepEqual(
    await openSettings({ backend: 'plaintext-file', dir }).load('remote_headers'),
    SAMPLES['remote_headers'],
  );
});

test('keyring backend: the settings scenario, in a real gnome-keyring session', async () => {
  const result = await runInKeyringSession(SETTINGS_WORKER, ['keyring']);
  const report = workerJson<ScenarioReport>(result);
  assert.match(report.description, /keyring|Secret Service/);
  checkReport(report, true);
  for (const secret of SECRETS)
    assert.ok(!result.stderr.includes(secret), `a secret on the worker's stderr: ${result.stderr}`);
});
