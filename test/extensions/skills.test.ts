/**
 * The skills extension (SEP-2640) against its real peer: the official SDK v2 server's skills extension
 * (`@modelcontextprotocol/server/ext/skills`) over stdio, as a 2026-07-28 server and as a 2025-11-25 one.
 * Each skill's files land in the folder byte for byte, with the digests the server published.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Client, connect, McpError, session } from '../../src/index.js';
import { ROOT } from '../catalog/helpers.js';
import { type RunningServer, startServer } from '../client/http-servers.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/sdk-skills-server.mjs');
const serverOf = (era: 'modern' | 'legacy', pageSize = 100) => ({
  command: process.execPath,
  args: [FIXTURE, '--era', era, '--page-size', String(pageSize)],
  protocolVersion: era === 'modern' ? ('2026-07-28' as const) : ('2025-11-25' as const),
});

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

let scratch: string;
before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'autos-mcp-skills-'));
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

for (const era of ['modern', 'legacy'] as const) {
  describe(`skills on the SDK v2 server (${era})`, () => {
    let client: Client;
    before(async () => {
      // Pages of one skill: the list is followed to its end through the same pager as tools.
      client = await connect(serverOf(era, 1));
    });
    after(async () => {
      await client.close();
    });

    it('lists every skill over its pages, with the cache hints in 2026 only', async () => {
      const list = await client.listSkills();
      assert.deepEqual(
        list.skills.map((skill) => skill.uri),
        ['skill://pdf-tools/SKILL.md', 'skill://review/SKILL.md', 'skill://team/deploy/SKILL.md'],
      );
      assert.deepEqual(list.excluded, []);
      const pdf = list.skills[0];
      assert.equal(pdf?.frontmatter.name, 'pdf-tools');
      assert.ok(Array.isArray(pdf?.resources) && pdf.resources.length === 4);
      if (era === 'modern') assert.deepEqual([list.ttlMs, list.cacheScope], [60000, 'public']);
      else assert.deepEqual([list.ttlMs, list.cacheScope], [undefined, undefined]);
    });

    it('reads a skill by name: every file written byte for byte, digests as published', async () => {
      const dir = path.join(scratch, `${era}-pdf`);
      const read = await client.readSkill('pdf-tools', { dir });
      assert.equal(read.dir, dir);
      assert.deepEqual(
        read.files.map((file) => file.path),
        ['SKILL.md', 'assets/logo.bin', 'references/GUIDE.md', 'scripts/fill.sh'],
      );
      for (const file of read.files) {
        const bytes = readFileSync(path.join(dir, file.path));
        assert.equal(bytes.length, file.size);
        assert.equal(sha256(bytes), file.digest);
      }
      assert.deepEqual([...readFileSync(path.join(dir, 'assets/logo.bin'))], [0, 1, 2, 255, 254, 128, 10]);
      assert.match(readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), /^---\nname: pdf-tools\n/);
      // Nothing else is left beside it: the staging folder was renamed into place.
      assert.deepEqual(
        readdirSync(scratch).filter((name) => name.startsWith(`.${era}-pdf`)),
        [],
      );
    });

    it('reads a skill by its SKILL.md uri (skills/get), into an existing empty folder', async () => {
      const dir = path.join(scratch, `${era}-deploy`);
      mkdirSync(dir);
      const read = await client.readSkill('skill://team/deploy/SKILL.md', { dir });
      assert.equal(read.skill.frontmatter.name, 'deploy');
      assert.deepEqual(readdirSync(dir), ['SKILL.md']);
    });

    it('reads an entry listSkills returned, as listed (no skills/get); a malformed one is refused', async () => {
      const { skills } = await client.listSkills();
      const review = skills.find((skill) => skill.frontmatter.name === 'review');
      assert.ok(review);
      const read = await client.readSkill(review, { dir: path.join(scratch, `${era}-entry`) });
      assert.deepEqual(
        read.files.map((file) => file.path),
        ['SKILL.md'],
      );
      await assert.rejects(
        client.readSkill({ ...review, resources: 'all' } as never, { dir: path.join(scratch, `${era}-bad`) }),
        (error: unknown) =>
          error instanceof McpError && error.kind === 'config' && error.delivery === 'not_sent',
      );
    });

    it('refuses a folder that is not empty, before anything is sent', async () => {
      const dir = path.join(scratch, `${era}-busy`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'mine.txt'), 'keep me');
      await assert.rejects(
        client.readSkill('pdf-tools', { dir }),
        (error: unknown) =>
          error instanceof McpError && error.kind === 'config' && error.delivery === 'not_sent',
      );
      assert.deepEqual(readdirSync(dir), ['mine.txt']);
    });

    it('an unknown skill: by name a config error, by uri the server says so (rpc)', async () => {
      await assert.rejects(client.readSkill('no-such-skill', { dir: path.join(scratch, `${era}-none`) }), {
        kind: 'config',
      });
      await assert.rejects(
        client.readSkill('skill://nope/SKILL.md', { dir: path.join(scratch, `${era}-none`) }),
        { kind: 'rpc' },
      );
      assert.deepEqual(
        readdirSync(scratch).filter((name) => name.includes(`${era}-none`)),
        [],
      );
    });
  });
}

describe('skills over Streamable HTTP (the SDK v2 server, 2026-07-28)', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer(
      FIXTURE,
      ['--era', 'modern', '--http'],
      (line) => line.match(/listening (http:\/\/\S+)/)?.[1],
    );
  });
  after(async () => {
    await server.stop();
  });

  it('lists and reads a skill, every file verified', async () => {
    const client = await connect({ url: server.url, protocolVersion: '2026-07-28' });
    try {
      const list = await client.listSkills();
      assert.equal(list.skills.length, 3);
      assert.equal(list.ttlMs, 60000);
      const dir = path.join(scratch, 'http-pdf');
      const read = await client.readSkill('pdf-tools', { dir });
      assert.equal(read.files.length, 4);
      for (const file of read.files)
        assert.equal(sha256(readFileSync(path.join(dir, file.path))), file.digest);
    } finally {
      await client.close();
    }
  });
});

describe('skills through a Session', () => {
  it('lists and reads the same way, connecting on first use', async () => {
    const s = session(serverOf('modern'));
    try {
      const list = await s.listSkills();
      assert.equal(list.skills.length, 3);
      const read = await s.readSkill('review', { dir: path.join(scratch, 'session-review') });
      assert.deepEqual(
        read.files.map((file) => file.path),
        ['SKILL.md'],
      );
    } finally {
      await s.close();
    }
  });
});
