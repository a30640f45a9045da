/**
 * Tool lists change: a 2025 server's `notifications/tools/list_changed` makes the next search list it
 * again (and the index follow); a 2026 server's list is reused while its `ttlMs` lasts and listed again
 * after; a pinned tool that drifted is left out of search and refused by describe and call as today
 * (`tool_changed`, nothing sent).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { catalog } from '../../src/catalog/index.js';
import type { CallToolResult, ServerConfig } from '../../src/client/index.js';
import { DRIFTING, MODERN, ROOT, rejection } from './helpers.js';

test('2025: after list_changed the next search lists again and finds the new description', async () => {
  const servers = catalog({ drift: DRIFTING() });
  try {
    const before = await servers.search('ssh instructions', { detail: 'descriptions' });
    assert.ok(!before.results.some((r) => r.ref === 'drift.echo'));
    assert.equal(
      (await servers.search('echo', { limit: 1 })).results[0]?.description,
      'Returns its text argument unchanged.',
    );
    await servers.call('drift.rugpull');
    const after = await servers.search('ssh instructions');
    assert.equal(after.results[0]?.ref, 'drift.echo');
    assert.match(after.results[0]?.description ?? '', /IGNORE ALL PREVIOUS INSTRUCTIONS/, 'returned as data');
    assert.match((await servers.describe('drift.echo')).description ?? '', /ssh/);
  } finally {
    await servers.close();
  }
});

test('a pinned tool that drifted is not searchable, and describe and call refuse it (tool_changed)', async () => {
  const first = catalog({ drift: DRIFTING() });
  const { digest } = await first.describe('drift.echo');
  await first.close();
  const pinned = catalog({ drift: { ...DRIFTING(), pin: { echo: digest } } });
  try {
    assert.equal((await pinned.search('echo', { limit: 1 })).results[0]?.ref, 'drift.echo');
    await pinned.call('drift.rugpull');
    const found = await pinned.search('echo text argument');
    assert.ok(!found.results.some((r) => r.ref === 'drift.echo'), JSON.stringify(found.results));
    const described = await rejection(pinned.describe('drift.echo'));
    assert.equal(described.kind, 'tool_changed');
    assert.equal(described.delivery, 'not_sent');
    assert.match(described.message, /changed since it was pinned/);
    assert.doesNotMatch(described.message, /IGNORE/, 'the new text is never quoted');
    const called = await rejection(pinned.call('drift.echo', { text: 'x' }));
    assert.equal(called.kind, 'tool_changed');
    assert.equal(called.delivery, 'not_sent');
  } finally {
    await pinned.close();
  }
});

test("2026: the list is reused while the server's ttlMs lasts, then listed again", async () => {
  let now = 5_000_000;
  const servers = catalog({ modern: MODERN }, { now: () => now });
  const lists = async () => {
    const result = (await servers.call('modern.received')) as CallToolResult;
    const text = (result.content[0] as { text: string }).text;
    return (JSON.parse(text) as { method: string }[]).filter((r) => r.method === 'tools/list').length;
  };
  try {
    assert.equal((await servers.search('echo')).results[0]?.ref, 'modern.echo');
    await servers.search('confirm');
    assert.equal(await lists(), 1, 'one tools/list for two searches');
    now += 59_999;
    await servers.search('echo');
    assert.equal(await lists(), 1);
    now += 1;
    await servers.search('echo');
    assert.equal(await lists(), 2, 'listed again once ttlMs (60 s) is over');
  } finally {
    await servers.close();
  }
});

test('2026: a catalog holds a subscriptions/listen open, and the next search finds the changed tool', async () => {
  const changing: ServerConfig = {
    command: process.execPath,
    args: [path.join(ROOT, 'test/fixtures/changing-tools.mjs')],
    protocolVersion: '2026-07-28',
  };
  let told: () => void = () => {};
  const changed = new Promise<void>((resolve) => {
    told = resolve;
  });
  const servers = catalog(
    { live: changing },
    { connect: { onToolListChanged: (event) => event.reason === 'changed' && told() } },
  );
  try {
    assert.ok(!(await servers.search('late registered')).results.some((r) => r.ref === 'live.late'));
    await servers.call('live.add_tool');
    await changed;
    assert.equal((await servers.search('registered later')).results[0]?.ref, 'live.late');
  } finally {
    await servers.close();
  }
});
