/**
 * The catalog's search ranks tools by what they are for, not by substring: BM25F over names (split into
 * words), descriptions and parameters; deterministic; bounded in the work a hostile listing can cause.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type SearchDocument, SearchIndex } from '../../src/catalog/search-index.js';
import { MAX_FIELD_CHARS, stem, words } from '../../src/catalog/tokens.js';

const TOOLS: SearchDocument[] = [
  {
    ref: 'github.create_issue',
    server: 'github',
    name: 'create_issue',
    description: 'Create a new issue in a GitHub repository.',
    parameters: [
      { name: 'repo', description: 'Repository name, owner/name' },
      { name: 'title', description: 'Issue title' },
    ],
  },
  {
    ref: 'github.listRepos',
    server: 'github',
    name: 'listRepos',
    description: 'List the repositories of a user or an organization.',
    parameters: [{ name: 'owner' }],
  },
  {
    ref: 'files.read_file',
    server: 'files',
    name: 'read_file',
    description: 'Read the complete contents of a file from the file system.',
    parameters: [{ name: 'path', description: 'Path of the file' }],
  },
  {
    ref: 'files.write_file',
    server: 'files',
    name: 'write_file',
    description: 'Create a new file or overwrite an existing file with new content.',
    parameters: [{ name: 'path' }, { name: 'content' }],
  },
  {
    ref: 'db.query',
    server: 'db',
    name: 'query',
    description: 'Run a read-only SQL query against the database.',
    parameters: [{ name: 'sql', description: 'The SQL statement' }],
  },
];

const refs = (index: SearchIndex, query: string, limit = 10) => index.search(query, limit).map((h) => h.ref);

describe('words', () => {
  it('splits names at case changes, separators and digits, and stems plurals and verb forms', () => {
    assert.deepEqual(words('getUserRepos'), ['get', 'user', 'repo']);
    assert.deepEqual(words('HTTPServer_v2-api.list/all'), ['http', 'server', 'v', '2', 'api', 'list', 'all']);
    assert.deepEqual(words('The files of the repositories'), ['file', 'repository']);
    assert.equal(stem('created'), stem('create'));
    assert.equal(stem('creating'), stem('create'));
    assert.equal(stem('running'), 'run');
    assert.equal(stem('queries'), 'query');
    assert.deepEqual(words('Größe ändern'), ['größ', 'ändern']);
  });

  it('reads at most MAX_FIELD_CHARS of a field and cuts absurd words', () => {
    const text = `${'word '.repeat(MAX_FIELD_CHARS)}needle`;
    assert.ok(!words(text).includes('needle'), 'text past the cut is not indexed');
    const [long] = words('x'.repeat(100_000));
    assert.equal(long?.length, 40);
  });
});

describe('SearchIndex', () => {
  const index = new SearchIndex(TOOLS);

  it('ranks the tool a query is about first, across servers', () => {
    assert.equal(refs(index, 'open a new issue')[0], 'github.create_issue');
    assert.equal(refs(index, 'read a file')[0], 'files.read_file');
    assert.equal(refs(index, 'sql database')[0], 'db.query');
    assert.equal(refs(index, 'repositories of an organization')[0], 'github.listRepos');
  });

  it('matches words inside names, not substrings: "repos" finds listRepos, "ead" finds nothing', () => {
    assert.ok(refs(index, 'repos').includes('github.listRepos'));
    assert.deepEqual(refs(index, 'ead'), []);
  });

  it('the last word matches as a prefix: "reposit" finds repositories', () => {
    assert.ok(refs(index, 'reposit').includes('github.listRepos'));
    assert.deepEqual(refs(index, 're'), [], 'too short to be a prefix');
  });

  it('is deterministic: equal scores are ordered by ref, and limit cuts', () => {
    const twins = new SearchIndex([
      { ref: 'b.same', server: 'b', name: 'same' },
      { ref: 'a.same', server: 'a', name: 'same' },
      { ref: 'c.other', server: 'c', name: 'other' },
    ]);
    assert.deepEqual(refs(twins, 'same'), ['a.same', 'b.same']);
    assert.deepEqual(refs(twins, 'same', 1), ['a.same']);
    assert.deepEqual(refs(twins, 'same', 0), []);
  });

  it('an empty query, a query of stop words, or an empty index matches nothing', () => {
    assert.deepEqual(refs(index, ''), []);
    assert.deepEqual(refs(index, 'the of and'), []);
    assert.deepEqual(refs(new SearchIndex([]), 'file'), []);
  });

  it('scores are finite numbers rounded to 4 decimals', () => {
    for (const hit of index.search('file', 10)) {
      assert.ok(Number.isFinite(hit.score) && hit.score > 0);
      assert.equal(hit.score, Math.round(hit.score * 10_000) / 10_000);
    }
  });
});
