/**
 * The client's side of the skills extension (src/extensions/skills): the options of `listSkills` and
 * `readSkill`, and the seam handed to the extension — the client's `request` with the caller's options
 * applied, and the same bounded pager as tools, resources and prompts (`fetchAllPages`).
 */
import type {
  ReadSkillResult,
  Skill,
  SkillList,
  SkillReadBounds,
  SkillsSeam,
} from '../extensions/skills/index.js';
import type { CallOptions } from './call-options.js';
import type { ListOptions } from './resource-types.js';
import { DEFAULT_MAX_PAGES, fetchAllPages } from './tools.js';

type Fields = Record<string, unknown>;

/** Options of `readSkill`: where to write, the bounds, the page bound of a lookup by name, and those of every request. */
export interface ReadSkillOptions extends CallOptions, SkillReadBounds {
  /** Most `skills/list` pages followed to find a skill by name. Default 100. */
  maxPages?: number;
}

/** What `listSkills` and `readSkill` need from a client. */
export interface SkillsClient {
  readonly target: string;
  request(method: string, params: Fields, options: CallOptions): Promise<Fields>;
}

function seamOf(client: SkillsClient, options: ListOptions): SkillsSeam {
  const { maxPages, ...sendOptions } = options;
  const request = (method: string, params: Fields) => client.request(method, params, sendOptions);
  return {
    target: client.target,
    request,
    listAll: (method, key) =>
      fetchAllPages(
        (cursor) => request(method, cursor === undefined ? {} : { cursor }),
        client.target,
        maxPages ?? DEFAULT_MAX_PAGES,
        method,
        key,
      ),
  };
}

/** The skills module, loaded on first use: most clients never read a skill, and its code is not small. */
const skillsModule = () => import('../extensions/skills/index.js');

export async function listSkills(client: SkillsClient, options: ListOptions = {}): Promise<SkillList> {
  const seam = seamOf(client, options);
  return (await skillsModule()).listSkills(seam);
}

export function readSkill(
  client: SkillsClient,
  ref: Skill | string,
  options: ReadSkillOptions,
): Promise<ReadSkillResult> {
  const { dir, maxFiles, maxBytes, ...listOptions } = options ?? ({} as ReadSkillOptions);
  const bounds: SkillReadBounds = { dir };
  if (maxFiles !== undefined) bounds.maxFiles = maxFiles;
  if (maxBytes !== undefined) bounds.maxBytes = maxBytes;
  const seam = seamOf(client, listOptions);
  return skillsModule().then((skills) => skills.readSkill(seam, ref, bounds));
}
