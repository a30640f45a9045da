/**
 * Approvals and result budgets through a catalog, against the real demo server: the catalog's
 * `tools.approve` (ref globs) joins the server's own rule in the client, the handler is told the server's
 * catalog name, a refused call never reaches the server, and `maxResultChars` cuts a call's result.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { catalog } from '../../src/catalog/index.js';
import type { ResultTruncation } from '../../src/client/index.js';
import { isErrorKind } from '../../src/errors/index.js';
import { demo } from './helpers.js';

test('a catalog approve glob asks onApprove with the server name; no yes means denied, not sent', async () => {
  const asked: Array<{ server: string | undefined; tool: string }> = [];
  let answer = false;
  const servers = catalog(
    { demo: await demo() },
    {
      tools: { approve: ['demo.ech*'] },
      onApprove: (request) => {
        asked.push({ server: request.server, tool: request.tool });
        return answer;
      },
    },
  );
  try {
    const refused = await servers.call('demo.echo', { text: 'no' }).then(
      () => assert.fail('a refused call resolved'),
      (error: unknown) => error,
    );
    assert.ok(isErrorKind(refused, 'denied'), String(refused));
    assert.equal(refused.delivery, 'not_sent');
    answer = true;
    const result = await servers.call('demo.echo', { text: 'yes' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'yes' }]);
    // A tool outside the glob is not asked about.
    await servers.call('demo.calls', {});
    assert.deepEqual(asked, [
      { server: 'demo', tool: 'echo' },
      { server: 'demo', tool: 'echo' },
    ]);
    // Before this one the server got two calls (echo 'yes', calls): the refused echo never left.
    const calls = await servers.call('demo.calls', {});
    assert.deepEqual(calls.structuredContent, { calls: 2 });
  } finally {
    await servers.close();
  }
});

test('an approve glob without a server part is a config error', async () => {
  const config = await demo();
  assert.throws(
    () => catalog({ demo: config }, { tools: { approve: ['echo'] } }),
    (error: unknown) => isErrorKind(error, 'config'),
  );
});

test('the catalog maxResultChars cuts a result and keeps the whole in a private file', async () => {
  const servers = catalog({ demo: await demo() }, { maxResultChars: 2_000 });
  try {
    const result = await servers.call('demo.big', { chars: 50_000 });
    const { truncated } = result as { truncated?: ResultTruncation };
    assert.ok(truncated, 'the result says it was cut');
    assert.ok(JSON.stringify(result).length <= 2_000);
    assert.ok(truncated.originalChars > 50_000);
    assert.match(readFileSync(truncated.file, 'utf8'), /x{50000}/);
    const uncut = await servers.call('demo.big', { chars: 500 }, { maxResultChars: 100_000 });
    assert.ok(!('truncated' in uncut), 'a result under budget is not marked');
  } finally {
    await servers.close();
  }
});
