/**
 * A skills server a client must not trust (test/fixtures/hostile-skills.mjs): each trick is refused with a
 * stable kind and the problem in `data`, and nothing is left in the folder asked for or beside it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Client, connect, McpError } from '../../src/index.js';
import { ROOT } from '../catalog/helpers.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/hostile-skills.mjs');

let scratch: string;
let client: Client;
let count = 0;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'autos-mcp-hostile-skills-'));
  client = await connect({ command: process.execPath, args: [FIXTURE] });
});
after(async () => {
  await client.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Reads `uri` into a fresh folder under scratch; asserts the refusal and that scratch stays empty. */
async function refused(uri: string, want: { kind: string; problem?: string }, bounds = {}): Promise<void> {
  count += 1;
  const dir = path.join(scratch, `out-${count}`);
  await assert.rejects(client.readSkill(uri, { dir, ...bounds }), (error: unknown) => {
    assert.ok(error instanceof McpError, `want an McpError, got ${String(error)}`);
    assert.deepEqual(
      { kind: error.kind, problem: (error.data as { problem?: string } | undefined)?.problem },
      { kind: want.kind, problem: want.problem },
      `${uri}: ${error.message}`,
    );
    return true;
  });
  assert.equal(existsSync(dir), false, `${uri}: the folder must not exist`);
  assert.deepEqual(readdirSync(scratch), [], `${uri}: nothing may be left beside it`);
}

describe('readSkill refuses what the manifest does not vouch for', () => {
  it('control: a well-formed skill from the same server is written', async () => {
    const dir = path.join(scratch, 'good');
    const read = await client.readSkill('skill://good/SKILL.md', { dir });
    assert.deepEqual(
      read.files.map((file) => file.path),
      ['SKILL.md', 'a/b.txt'],
    );
    rmSync(dir, { recursive: true });
  });

  it('bytes that are not the digest (same size): skill_rejected digest', async () => {
    await refused('skill://bad-digest/SKILL.md', { kind: 'skill_rejected', problem: 'digest' });
  });

  it('a megabyte where the manifest says 10 bytes: skill_rejected size', async () => {
    await refused('skill://bad-size/SKILL.md', { kind: 'skill_rejected', problem: 'size' });
  });

  it('an answer that slips in an unlisted file: skill_rejected unlisted', async () => {
    await refused('skill://unlisted/SKILL.md', { kind: 'skill_rejected', problem: 'unlisted' });
  });

  it('a bad third file: the two already verified and staged are removed too', async () => {
    await refused('skill://late-fail/SKILL.md', { kind: 'skill_rejected', problem: 'digest' });
  });

  for (const name of [
    'path-dots',
    'path-raw-dots',
    'path-slash',
    'path-backslash',
    'path-outside',
    'path-absolute',
    'path-nul',
    'path-device',
    'path-colon',
    'path-case',
    'path-file-folder',
  ]) {
    it(`a manifest path that cannot stay in the folder (${name}): skill_rejected path`, async () => {
      await refused(`skill://${name}/SKILL.md`, { kind: 'skill_rejected', problem: 'path' });
    });
  }

  it('600 files, over the 512 bound: too_large before any file is read', async () => {
    await refused('skill://many/SKILL.md', { kind: 'too_large' });
  });

  it('20 MiB declared, over the 16 MiB bound: too_large; a lower caller bound counts too', async () => {
    await refused('skill://huge/SKILL.md', { kind: 'too_large' });
    await refused('skill://good/SKILL.md', { kind: 'too_large' }, { maxFiles: 1 });
    await refused('skill://good/SKILL.md', { kind: 'too_large' }, { maxBytes: 10 });
  });

  it('a SKILL.md that names another skill than its entry (digest right): skill_rejected frontmatter', async () => {
    await refused('skill://liar/SKILL.md', { kind: 'skill_rejected', problem: 'frontmatter' });
  });

  it("a SKILL.md whose description is not the entry's: refused before any other file is asked for", async () => {
    await refused('skill://tampered/SKILL.md', { kind: 'skill_rejected', problem: 'frontmatter' });
    const { reads } = (await client.request('test/reads')) as { reads: string[] };
    assert.ok(reads.includes('skill://tampered/SKILL.md'));
    assert.ok(!reads.includes('skill://tampered/references/FORMS.md'), 'FORMS.md was read');
  });

  it('a file that never comes: timeout, and the file already staged is removed', async () => {
    await refused('skill://hang/SKILL.md', { kind: 'timeout' }, { timeoutMs: 300 });
  });

  it('an aborted signal: cancelled, nothing sent, nothing written', async () => {
    const controller = new AbortController();
    controller.abort();
    await refused('skill://good/SKILL.md', { kind: 'cancelled' }, { signal: controller.signal });
  });

  it('a "dynamic" skill has nothing to verify against: skill_rejected dynamic', async () => {
    await refused('skill://dynamic/SKILL.md', { kind: 'skill_rejected', problem: 'dynamic' });
  });

  it('skills/get answering with another skill: skill_rejected entry', async () => {
    await refused('skill://impostor/SKILL.md', { kind: 'skill_rejected', problem: 'entry' });
  });

  it('bounds out of range are config errors, nothing sent', async () => {
    await refused('skill://good/SKILL.md', { kind: 'config' }, { maxFiles: 0 });
    await refused('skill://good/SKILL.md', { kind: 'config' }, { maxBytes: 2 ** 40 });
  });
});

describe('listSkills on the hostile server', () => {
  it('leaves malformed entries out with a reason and keeps the rest', async () => {
    const list = await client.listSkills();
    assert.ok(list.skills.some((skill) => skill.uri === 'skill://good/SKILL.md'));
    assert.deepEqual(
      list.excluded.map((item) => item.name.replace(/^\(entry \d+\)$/, '(entry N)')),
      ['x', 'upper', 'negative', 'skill://nameless/SKILL.md', '(entry N)'],
    );
    for (const item of list.excluded) assert.ok(item.reason.length > 0);
  });

  it('pages for ever: a protocol error at the page bound', async () => {
    const endless = await connect({ command: process.execPath, args: [FIXTURE, '--endless'] });
    try {
      await assert.rejects(endless.listSkills({ maxPages: 5 }), (error: unknown) => {
        assert.ok(error instanceof McpError && error.kind === 'protocol');
        assert.match(error.message, /more than 5 pages/);
        return true;
      });
      // A lookup by name lists too, under the same bound.
      await assert.rejects(endless.readSkill('good', { dir: path.join(scratch, 'endless'), maxPages: 3 }), {
        kind: 'protocol',
      });
      assert.deepEqual(readdirSync(scratch), []);
    } finally {
      await endless.close();
    }
  });
});
