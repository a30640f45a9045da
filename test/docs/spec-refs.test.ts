/**
 * Spec citations resolve: every spec key (`S25/<path>`, `S26/<path>`, `S25+26/<path>`) and every `RFC <n>` in
 * src/ and test/ is a row of docs/spec-refs.md, each row's URL follows the key, and nothing in src/ or test/
 * cites notes that live outside this repository (a clone does not have them).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { must } from '../helpers/must.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url));
const REFS = 'docs/spec-refs.md';
const REVISIONS: Record<string, string> = { '25': '2025-11-25', '26': '2026-07-28' };
const KEY = /S2[56](?:\+2[56])?\/[a-z/_-]+/g;
const RFC = /RFC ?(\d{3,5})/g;
/** Citations of files outside the repository: the shared protocol digest and conformance notes, their tags. */
const OUTSIDE: readonly RegExp[] = [/\bDIGEST\b/, /CONFORMANCE\.md/, /⚑CONF/, /⚠INTERP/, /\/work\/shared\b/];

interface Hit {
  where: string;
  text: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(path.join(ROOT, f)).isFile())
    .sort();
}

const sources = [...filesUnder('src'), ...filesUnder('test')].map((file) => ({
  file,
  lines: readFileSync(path.join(ROOT, file), 'utf8').split('\n'),
}));

function matches(pattern: RegExp): Hit[] {
  const hits: Hit[] = [];
  for (const { file, lines } of sources) {
    lines.forEach((line, i) => {
      for (const m of line.matchAll(pattern)) hits.push({ where: `${file}:${i + 1}`, text: m[1] ?? m[0] });
    });
  }
  return hits;
}

/** `S25/basic/index` → its web page; a section's `index` is the folder's address. */
function urlOf(revision: string, page: string): string {
  const web = page.replace(/(^|\/)index$/, '');
  return `https://modelcontextprotocol.io/specification/${revision}${web ? `/${web}` : ''}`;
}

const refs = readFileSync(path.join(ROOT, REFS), 'utf8').split('\n');
/** Single-revision rows: key → URL. */
const pages = new Map<string, string>();
const rfcs = new Set<string>();
for (const line of refs) {
  const page = /^\| `(S2[56]\/[a-z/_-]+)` \|[^|]*\| (\S+) \|$/.exec(line);
  if (page?.[1] && page[2]) pages.set(page[1], page[2]);
  const rfc = /^\| RFC (\d+) \|/.exec(line);
  if (rfc?.[1]) rfcs.add(rfc[1]);
}

function resolves(key: string): boolean {
  const [tags, ...rest] = key.split('/');
  const page = rest.join('/');
  const revisions = must(tags, `the tag of ${key}`).slice(1).split('+');
  if (new Set(revisions).size !== revisions.length) return false;
  return revisions.every((r) => pages.has(`S${r}/${page}`));
}

test(`${REFS} lists pages, each at the URL its key names`, () => {
  assert.ok(pages.size >= 40, `want the pages of both revisions, found ${pages.size} rows`);
  const wrong: string[] = [];
  for (const [key, url] of pages) {
    const [tag, ...rest] = key.split('/');
    const revision = must(REVISIONS[must(tag, `the tag of ${key}`).slice(1)], `the revision of ${key}`);
    const want = urlOf(revision, rest.join('/'));
    if (url !== want) wrong.push(`${key}: ${url}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});

test(`every spec key in src/ and test/ resolves in ${REFS}`, () => {
  const keys = matches(KEY).map((h) => ({ ...h, text: h.text.replace(/[/_-]+$/, '') }));
  assert.ok(keys.length > 0, 'found no spec keys at all: is the pattern right?');
  const unresolved = keys.filter((h) => !resolves(h.text)).map((h) => `${h.where}: ${h.text}`);
  assert.deepEqual(unresolved, [], `keys that ${REFS} does not resolve`);
});

test(`every RFC cited in src/ and test/ is listed in ${REFS}`, () => {
  const missing = matches(RFC)
    .filter((h) => !rfcs.has(h.text))
    .map((h) => `${h.where}: RFC ${h.text}`);
  assert.deepEqual(missing, [], `RFCs that ${REFS} does not list`);
});

test('nothing in src/ or test/ cites a file outside the repository', () => {
  const outside: string[] = [];
  for (const { file, lines } of sources) {
    if (file === SELF) continue;
    lines.forEach((line, i) => {
      const hit = OUTSIDE.find((p) => p.test(line));
      if (hit) outside.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(outside, [], 'cite a spec key (see docs/spec-refs.md) or say the reading in words');
});
