/**
 * `readSkill`: a skill's files, each read with `resources/read` and verified against the manifest (size,
 * then SHA-256) before it is written, into a folder made whole or not at all. Bounds on the number of files
 * and their total size are checked on the manifest before any file is read; a path that would leave the
 * folder refuses the skill before any file is read. A `"dynamic"` skill has no manifest to verify against,
 * so it is refused (`problem: 'dynamic'`): read its `SKILL.md` with `readResource`. The `SKILL.md` must name
 * the skill its entry names (frontmatter.ts). Spec: SEP-2640.
 */
import { McpError } from '../../errors/index.js';
import { skillRoot } from './check.js';
import { FrontmatterError, parseFrontmatter, sameJson } from './frontmatter.js';
import { complete, findSkill, type SkillsSeam } from './list.js';
import { collision, relativeSegments } from './paths.js';
import { checkDestination, openStaging } from './staging.js';
import type { ReadSkillResult, Skill, SkillFile, SkillReadBounds, WrittenSkillFile } from './types.js';
import { rejected, verifiedBytes } from './verify.js';

/** The extension's interoperability limits (hosts MUST accept skills up to these): 512 files, 16 MiB. */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });
/**
 * `resources/read` requests in flight at once: over HTTP a skill's files come in a quarter of the round
 * trips, and a server is never sent more than this many at a time by one `readSkill`.
 */
const READS_IN_FLIGHT = 4;
/** The most a caller may raise the bounds to. */
const CEILING = Object.freeze({ files: 100_000, bytes: 2 ** 31 - 1 });

interface PlannedFile {
  file: SkillFile;
  segments: string[];
}

function bound(value: number | undefined, fallback: number, ceiling: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > ceiling)
    throw new McpError('config', `readSkill: ${name} must be a whole number from 1 to ${ceiling}`);
  return value;
}

/** Where each file goes (the SKILL.md first), and the bounds checked, before any file is read. */
function plan(skill: Skill, maxFiles: number, maxBytes: number, target: string): PlannedFile[] {
  const what = `skill ${skill.uri.slice(0, 200)} on ${target}`;
  if (skill.resources === 'dynamic')
    throw rejected('dynamic', skill.uri, `${what}: its files are "dynamic", so none can be verified`);
  const root = skillRoot(skill.uri);
  if (root === undefined)
    throw rejected('entry', skill.uri, `${what}: its uri is not a SKILL.md in a folder`);
  const files = skill.resources;
  if (files.length > maxFiles)
    throw new McpError('too_large', `${what}: ${files.length} files, more than the bound of ${maxFiles}`, {
      delivery: 'delivered',
      data: { limit: maxFiles, files: files.length },
    });
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > maxBytes)
    throw new McpError('too_large', `${what}: ${total} bytes, more than the bound of ${maxBytes}`, {
      delivery: 'delivered',
      data: { limit: maxBytes, bytes: total },
    });
  const planned: PlannedFile[] = [];
  for (const file of files) {
    const place = relativeSegments(root, file.uri);
    if ('problem' in place)
      throw rejected(
        'path',
        file.uri,
        `${what}: a file's uri cannot be a path in the folder: ${place.problem}`,
      );
    planned.push({ file, segments: place.segments });
  }
  const clash = collision(planned.map((item) => item.segments));
  if (clash !== undefined)
    throw rejected('path', skill.uri, `${what}: two files land on one path (${clash.slice(0, 200)})`);
  const own = planned.findIndex((item) => item.segments.length === 1 && item.segments[0] === 'SKILL.md');
  const [manifest] = own === -1 ? [] : planned.splice(own, 1);
  if (manifest === undefined)
    throw rejected('entry', skill.uri, `${what}: the manifest does not list its SKILL.md`);
  return [manifest, ...planned];
}

/**
 * The `SKILL.md`'s frontmatter must be the entry's, field by field (SEP-2640: a host MUST parse it, compare
 * it with the entry's and MUST NOT load the skill on any discrepancy). Not UTF-8, or YAML this client does
 * not read (frontmatter.ts), refuses the skill too.
 */
function checkFrontmatter(bytes: Buffer, skill: Skill, what: string): void {
  let parsed: Record<string, unknown>;
  try {
    parsed = parseFrontmatter(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    const why = error instanceof FrontmatterError ? error.message : 'it is not UTF-8';
    throw rejected('frontmatter', skill.uri, `${what}: its frontmatter cannot be read (${why})`);
  }
  const fields = [...new Set([...Object.keys(parsed), ...Object.keys(skill.frontmatter)])];
  const differ = fields.filter((key) => !sameJson(parsed[key], skill.frontmatter[key]));
  if (differ.length > 0)
    throw rejected(
      'frontmatter',
      skill.uri,
      `${what}: its frontmatter is not the entry's (${differ
        .slice(0, 5)
        .map((key) => JSON.stringify(key.slice(0, 64)))
        .join(', ')} differ)`,
    );
}

/**
 * Runs `step` on each item, at most `READS_IN_FLIGHT` at once. The first failure stops new steps; the ones
 * in flight are waited for (each has its deadline), then that first failure is thrown.
 */
async function eachBounded<T>(items: readonly T[], step: (item: T, index: number) => Promise<void>) {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        await step(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, items.length) }, lane));
  if (failure !== undefined) throw failure.error;
}

/**
 * Reads, verifies and writes the skill `ref` names: an entry from `listSkills`, a `SKILL.md` URI or a
 * `frontmatter.name`.
 */
export async function readSkill(
  seam: SkillsSeam,
  ref: Skill | string,
  bounds: SkillReadBounds,
): Promise<ReadSkillResult> {
  if (ref === '' || (typeof ref !== 'string' && (typeof ref !== 'object' || ref === null)))
    throw new McpError('config', 'readSkill needs a skill: an entry of listSkills, a SKILL.md uri or a name');
  if (typeof bounds?.dir !== 'string' || bounds.dir === '')
    throw new McpError('config', 'readSkill needs a folder to write to: { dir }');
  const maxFiles = bound(bounds.maxFiles, SKILL_LIMITS.files, CEILING.files, 'maxFiles');
  const maxBytes = bound(bounds.maxBytes, SKILL_LIMITS.bytes, CEILING.bytes, 'maxBytes');
  const dir = await checkDestination(bounds.dir);
  const skill = await findSkill(seam, ref);
  const planned = plan(skill, maxFiles, maxBytes, seam.target);
  const staging = await openStaging(dir);
  const written: WrittenSkillFile[] = [];
  const readOne = async ({ file, segments }: PlannedFile, index: number): Promise<void> => {
    const what = `resources/read ${file.uri.slice(0, 200)} on ${seam.target}`;
    const result = complete(await seam.request('resources/read', { uri: file.uri }), what);
    const bytes = verifiedBytes(result, file, what);
    if (index === 0) checkFrontmatter(bytes, skill, what);
    await staging.write(segments, bytes);
    written[index] = { uri: file.uri, path: segments.join('/'), size: file.size, digest: file.digest };
  };
  try {
    // The SKILL.md alone first: a skill whose SKILL.md fails verification is not loaded, so none of its
    // other files is asked for (SEP-2640: a host MUST NOT load the skill on any discrepancy).
    const [manifest, ...rest] = planned;
    if (manifest !== undefined) await readOne(manifest, 0);
    await eachBounded(rest, (item, index) => readOne(item, index + 1));
    await staging.commit();
  } catch (error) {
    await staging.discard();
    throw error;
  }
  return { skill, dir, files: written };
}
