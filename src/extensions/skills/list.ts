/**
 * `skills/list` to the end through the client's bounded pager, and `skills/get` for one `SKILL.md` URI;
 * each entry checked (check.ts). The seam is what the extension needs from a client: its requests with the
 * caller's options already applied, and its pager. Spec: SEP-2640 `skills/list`, `skills/get`;
 * S26/server/utilities/caching (the `ttlMs`, `cacheScope` hints).
 */
import { McpError } from '../../errors/index.js';
import { canonicalUri, checkSkills, skillProblem } from './check.js';
import type { Skill, SkillList } from './types.js';
import { rejected } from './verify.js';

type Fields = Record<string, unknown>;

/** What the skills calls need from a client. */
export interface SkillsSeam {
  /** A display name for the server, never a secret. */
  readonly target: string;
  /** Sends one request with the caller's options (deadline, signal: an aborted one stops the next read). */
  request(method: string, params: Fields): Promise<Fields>;
  /** Every item of `key` over the pages of `method`, through the client's bounded pager, and the last page. */
  listAll(method: string, key: string): Promise<{ items: unknown[]; last: Fields }>;
}

/** The result of a 2026 request that still asks for input (no handler answered it) is refused. */
export function complete(result: Fields, what: string): Fields {
  if (result['resultType'] === 'input_required')
    throw new McpError('protocol', `${what}: the server asked for input and no handler answered it`, {
      delivery: 'delivered',
    });
  return result;
}

/** Every skill the server lists; malformed entries left out with a reason. */
export async function listSkills(seam: SkillsSeam): Promise<SkillList> {
  const { items, last } = await seam.listAll('skills/list', 'skills');
  const out: SkillList = checkSkills(items);
  const ttl = last['ttlMs'];
  if (typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl >= 0) out.ttlMs = ttl;
  const scope = last['cacheScope'];
  if (scope === 'public' || scope === 'private') out.cacheScope = scope;
  return out;
}

/** The entry of the skill whose `SKILL.md` is at `uri` (`skills/get`), checked. */
export async function getSkill(seam: SkillsSeam, uri: string): Promise<Skill> {
  const what = `skills/get ${uri.slice(0, 200)} on ${seam.target}`;
  const result = complete(await seam.request('skills/get', { uri }), what);
  const skill = result['skill'];
  const problem = skillProblem(skill);
  if (problem !== undefined) throw rejected('entry', uri, `${what}: the entry is malformed (${problem})`);
  const entry = skill as Skill;
  if (canonicalUri(entry.uri) !== canonicalUri(uri))
    throw rejected('entry', uri, `${what}: the server answered with another skill`);
  return entry;
}

/**
 * The skill a caller names: an entry `listSkills` returned (used as it is: what was listed is what is
 * read), a `SKILL.md` URI (anything with a `:`) through `skills/get`, else a `frontmatter.name` among the
 * listed skills (exactly one must have it).
 */
export async function findSkill(seam: SkillsSeam, ref: Skill | string): Promise<Skill> {
  if (typeof ref !== 'string') {
    const problem = skillProblem(ref);
    if (problem !== undefined)
      throw new McpError('config', `readSkill: the skill entry is malformed (${problem})`);
    return ref;
  }
  const uriOrName = ref;
  if (uriOrName.includes(':')) return getSkill(seam, uriOrName);
  const { skills } = await listSkills(seam);
  const named = skills.filter((skill) => skill.frontmatter.name === uriOrName);
  const [only, second] = named;
  if (only === undefined)
    throw new McpError(
      'config',
      `no skill named ${JSON.stringify(uriOrName.slice(0, 100))} on ${seam.target}`,
      {
        delivery: 'delivered',
      },
    );
  if (second !== undefined)
    throw new McpError(
      'config',
      `${named.length} skills are named ${JSON.stringify(uriOrName.slice(0, 100))} on ${seam.target}; give the SKILL.md uri`,
      { delivery: 'delivered', data: { uris: named.map((skill) => skill.uri) } },
    );
  return only;
}
