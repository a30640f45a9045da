/**
 * The structural check of one skill entry (`skills/list`, `skills/get`), loose but safe: what the client
 * relies on is checked (the `SKILL.md` URI, `name` and `description`, each manifest file's URI, digest and
 * size), everything else is kept as sent. Pure; never throws on server data. Spec: SEP-2640 `Skill`.
 */
import type { ExcludedSkill, Skill } from './types.js';

type Fields = Record<string, unknown>;

/** `sha256:` followed by 64 lowercase hexadecimal digits (SEP-2640 `digest`). */
export const DIGEST_PATTERN = /^sha256:[\da-f]{64}$/;

const MANIFEST_SUFFIX = '/SKILL.md';

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The URI as the URL parser writes it, or undefined when it is not a URI. */
export function canonicalUri(uri: string): string | undefined {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}

/** The skill's folder URI (its `SKILL.md` URI without `/SKILL.md`), or undefined when it has none. */
export function skillRoot(skillUri: string): string | undefined {
  const canonical = canonicalUri(skillUri);
  if (canonical === undefined || /[?#]/.test(canonical) || !canonical.endsWith(MANIFEST_SUFFIX))
    return undefined;
  const root = canonical.slice(0, -MANIFEST_SUFFIX.length);
  return root.endsWith('/') || root.endsWith(':') ? undefined : root;
}

function fileProblem(file: unknown, index: number): string | undefined {
  const at = `resources[${index}]`;
  if (!isObject(file)) return `${at} is not an object`;
  if (typeof file['uri'] !== 'string' || file['uri'] === '') return `${at}.uri is missing or not a string`;
  if (typeof file['digest'] !== 'string' || !DIGEST_PATTERN.test(file['digest']))
    return `${at}.digest is not "sha256:" and 64 lowercase hexadecimal digits`;
  const size = file['size'];
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
    return `${at}.size is not a whole number of bytes`;
  return undefined;
}

/** Why this entry is not a usable skill, or undefined when it is one. */
export function skillProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'the entry is not an object';
  const uri = entry['uri'];
  if (typeof uri !== 'string' || uri.length > 4096 || skillRoot(uri) === undefined)
    return 'uri is not a URI of a SKILL.md inside a folder';
  const frontmatter = entry['frontmatter'];
  if (!isObject(frontmatter)) return 'frontmatter is not an object';
  if (typeof frontmatter['name'] !== 'string' || frontmatter['name'] === '')
    return 'frontmatter.name is missing or not a string';
  if (typeof frontmatter['description'] !== 'string') return 'frontmatter.description is not a string';
  const resources = entry['resources'];
  if (resources !== 'dynamic') {
    if (!Array.isArray(resources)) return 'resources is neither a list of files nor "dynamic"';
    for (const [index, file] of resources.entries()) {
      const problem = fileProblem(file, index);
      if (problem !== undefined) return problem;
    }
  }
  if (entry['_meta'] !== undefined && !isObject(entry['_meta'])) return '_meta is not an object';
  return undefined;
}

function labelOf(entry: unknown, index: number): string {
  if (isObject(entry)) {
    const name = isObject(entry['frontmatter']) ? entry['frontmatter']['name'] : undefined;
    for (const value of [name, entry['uri']])
      if (typeof value === 'string' && value !== '') return value.slice(0, 512);
  }
  return `(entry ${index + 1})`;
}

/** Sorts raw entries into usable skills and excluded ones; never throws on server data. */
export function checkSkills(raw: readonly unknown[]): { skills: Skill[]; excluded: ExcludedSkill[] } {
  const skills: Skill[] = [];
  const excluded: ExcludedSkill[] = [];
  raw.forEach((entry, index) => {
    const reason = skillProblem(entry);
    if (reason === undefined) skills.push(entry as Skill);
    else excluded.push({ name: labelOf(entry, index), reason });
  });
  return { skills, excluded };
}
