/**
 * A hostile server's tool list, through the catalog: a 1 MB description is indexed only to its cut and
 * returned cut (with `…`); a 10,000-character title is cut; names that split into the same words stay
 * distinct refs ranked by ref; a tool name with dots is one ref; a list over the message bound is a
 * problem of that server alone; a filler of 3,000 tools is searched whole.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Catalog, catalog } from '../../src/catalog/index.js';
import { MAX_FIELD_CHARS } from '../../src/catalog/tokens.js';
import { EVERYTHING, HOSTILE } from './helpers.js';

describe('a hostile tool list', () => {
  let servers: Catalog;
  before(() => {
    servers = catalog({ hostile: HOSTILE(3_000) });
  });
  after(async () => {
    await servers.close();
  });

  test('a huge description is indexed to its cut and returned cut to 1,000 characters', async () => {
    const found = await servers.search('weather', { limit: 5 });
    const huge = found.results.find((r) => r.ref === 'hostile.huge');
    assert.ok(huge, JSON.stringify(found.results.map((r) => r.ref)));
    assert.equal(huge.description?.length, 1_000);
    assert.ok(huge.description?.endsWith('…'));
    const titled = found.results.find((r) => r.ref === 'hostile.titled');
    assert.equal(titled?.title?.length, 200);
    // "tail-needle" stands a million characters in: past the MAX_FIELD_CHARS the index reads.
    assert.ok(MAX_FIELD_CHARS < 1_000_000);
    assert.ok(!(await servers.search('needle')).results.some((r) => r.ref === 'hostile.huge'));
    // describe is where the whole definition is.
    assert.ok(((await servers.describe('hostile.huge')).description?.length ?? 0) > 1_000_000);
  });

  test('names that split into the same words are distinct refs, equal scores ordered by ref', async () => {
    const found = await servers.search('get user', { detail: 'names' });
    assert.deepEqual(
      found.results.slice(0, 4).map((r) => r.ref),
      ['hostile.GetUser', 'hostile.get-user', 'hostile.getUser', 'hostile.get_user'],
    );
    const scores = new Set(found.results.slice(0, 4).map((r) => r.score));
    assert.equal(scores.size, 1);
  });

  test('a tool name with dots is one ref: the server ends at the first dot', async () => {
    const dotted = await servers.describe('hostile.a.b.c');
    assert.equal(dotted.server, 'hostile');
    assert.equal(dotted.tool, 'a.b.c');
    const called = await servers.call('hostile.a.b.c');
    assert.deepEqual(called.content, [{ type: 'text', text: 'called a.b.c' }]);
  });

  test('3,000 filler tools and 10,000 parameters are listed and searched, with limits honoured', async () => {
    const all = await servers.list();
    assert.equal(all.results.filter((r) => r.tool.startsWith('filler_')).length, 3_000);
    const filler = await servers.search('filler tool 1234', { limit: 1_000, detail: 'names' });
    assert.equal(filler.results.length, 1_000);
    assert.equal(filler.results[0]?.ref, 'hostile.filler_1234');
    const wide = await servers.describe('hostile.wide');
    assert.equal(Object.keys(wide.inputSchema['properties'] as object).length, 10_000);
  });
});

test('a list over the message bound is a problem of that server; the others answer', async () => {
  const servers = catalog({ hostile: { ...HOSTILE(), maxMessageBytes: 100_000 }, everything: EVERYTHING });
  try {
    const found = await servers.search('echo', { detail: 'names' });
    assert.deepEqual(
      found.results.map((r) => r.ref),
      ['everything.echo'],
    );
    assert.deepEqual(
      found.problems.map((p) => [p.server, p.kind]),
      [['hostile', 'too_large']],
    );
  } finally {
    await servers.close();
  }
});
