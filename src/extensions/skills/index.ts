/**
 * The skills extension (`io.modelcontextprotocol/skills`, SEP-2640): list a server's skills and write one
 * skill's files, each verified against its manifest, to a folder. Reached through `Client.listSkills` and
 * `Client.readSkill` (the client hands it a `SkillsSeam`); the types are re-exported by `src/index.ts`.
 */
export { SKILLS_EXTENSION } from './extension.js';
export { listSkills, type SkillsSeam } from './list.js';
export { readSkill, SKILL_LIMITS } from './read.js';
export type {
  ExcludedSkill,
  ReadSkillResult,
  Skill,
  SkillFile,
  SkillFrontmatter,
  SkillList,
  SkillProblem,
  SkillReadBounds,
  WrittenSkillFile,
} from './types.js';
