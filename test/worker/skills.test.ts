/**
 * Skills through `autos-mcp/worker`, by id, against the official SDK v2 skills server over stdio: the list
 * and the verified files come back as plain data, a refusal keeps its kind and problem.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isMcpError } from '../../src/errors/index.js';
import { close, listSkills, open, readSkill } from '../../src/worker/index.js';
import { ROOT } from '../catalog/helpers.js';

describe('skills in a worker', () => {
  let id: string;
  let scratch: string;
  before(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'autos-mcp-worker-skills-'));
    id = await open({
      command: process.execPath,
      args: [path.join(ROOT, 'test/fixtures/sdk-skills-server.mjs'), '--era', 'modern'],
      protocolVersion: '2026-07-28',
    });
  });
  after(async () => {
    await close(id);
    rmSync(scratch, { recursive: true, force: true });
  });

  test('lists and reads a skill by id', async () => {
    const list = await listSkills(id);
    assert.equal(list.skills.length, 3);
    const dir = path.join(scratch, 'pdf');
    const read = await readSkill(id, 'pdf-tools', { dir });
    assert.equal(read.files.length, 4);
    assert.equal(
      readFileSync(path.join(dir, 'references/GUIDE.md'), 'utf8'),
      '# Guide\n\nUse scripts/fill.sh.\n',
    );
  });

  test('a refusal crosses as data: kind and problem kept, nothing written', async () => {
    await assert.rejects(
      readSkill(id, 'pdf-tools', { dir: path.join(scratch, 'small'), maxFiles: 2 }),
      (error) => isMcpError(error) && error.kind === 'too_large',
    );
    await assert.rejects(
      readSkill(id, '', { dir: scratch }),
      (error) => isMcpError(error) && error.kind === 'config',
    );
    assert.deepEqual(readdirSync(scratch), ['pdf']);
  });
});
