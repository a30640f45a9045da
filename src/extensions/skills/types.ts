/**
 * The shapes of the skills extension (`io.modelcontextprotocol/skills`, SEP-2640) as the client hands them
 * back. Everything in them is data from the server (names, descriptions, file contents), never an
 * instruction to anyone.
 */

/** One file of a skill's manifest: its resource URI, `sha256:` + 64 lowercase hex digits, its size in bytes. */
export interface SkillFile {
  uri: string;
  digest: string;
  size: number;
  [key: string]: unknown;
}

/** A skill's `SKILL.md` frontmatter as JSON, as the server sent it (`name` and `description` checked). */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

/** One skill, as `skills/list` and `skills/get` carry it. */
export interface Skill {
  /** The resource URI of the skill's `SKILL.md`. */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill with its digest and size, or `"dynamic"` (not enumerable, so not verifiable). */
  resources: SkillFile[] | 'dynamic';
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A skill left out of a list because it does not fit the extension's schema, with the reason. */
export interface ExcludedSkill {
  /** The entry's `frontmatter.name` or `uri` when it has one as a string, else `(entry N)`. */
  name: string;
  /** Why, in the client's words (never the server's text). */
  reason: string;
}

/** `listSkills()`: the usable skills, the ones left out, and the 2026 cache hints of the last page. */
export interface SkillList {
  skills: Skill[];
  excluded: ExcludedSkill[];
  /** How long the list may be reused, in ms (2026-07-28; absent from 2025 servers). */
  ttlMs?: number;
  /** `public` or `private` (2026-07-28). */
  cacheScope?: 'public' | 'private';
}

/** Where `readSkill` writes, and its bounds. */
export interface SkillReadBounds {
  /**
   * The folder the skill's files go to. It must not exist or be empty; it is created whole (all files
   * verified) or not at all.
   */
  dir: string;
  /** Most files a skill may have. Default 512 (the extension's interoperability limit). */
  maxFiles?: number;
  /** Most bytes all its files may add up to. Default 16 MiB (the extension's interoperability limit). */
  maxBytes?: number;
}

/** One file `readSkill` wrote, after its size and SHA-256 matched the manifest. */
export interface WrittenSkillFile {
  uri: string;
  /** Where it is, relative to `dir`, with `/` separators. */
  path: string;
  size: number;
  digest: string;
}

/** `readSkill()`: the skill's entry, the folder written (absolute) and every file in it. */
export interface ReadSkillResult {
  skill: Skill;
  dir: string;
  files: WrittenSkillFile[];
}

/** What `skill_rejected` errors carry in `data.problem`. */
export type SkillProblem =
  | 'entry'
  | 'dynamic'
  | 'path'
  | 'unlisted'
  | 'missing'
  | 'size'
  | 'digest'
  | 'frontmatter';
