/**
 * `ResourceMethods`: the resource and prompt methods of `Client`, written once over its `request` and
 * `target` (src/client/resources.ts does the work). `Client` extends it; `Session` delegates to its client.
 */

import type { ReadSkillResult, Skill, SkillList } from '../extensions/skills/index.js';
import type { CallOptions } from './call-options.js';
import type {
  GetPromptResult,
  ListOptions,
  PromptList,
  ReadResourceResult,
  ResourceList,
  ResourceTemplateList,
} from './resource-types.js';
import * as resources from './resources.js';
import * as skills from './skills.js';

export abstract class ResourceMethods {
  /** A display name for the server, never a secret. */
  abstract get target(): string;

  /** Sends any request and returns its raw `result`. */
  abstract request(
    method: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;

  /** Every resource (`resources/list`), following pagination to the end; malformed entries left out with a reason. */
  listResources(options?: ListOptions): Promise<ResourceList> {
    return resources.listResources(this, options);
  }

  /** Every resource template (`resources/templates/list`), paginated and checked like `listResources`. */
  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplateList> {
    return resources.listResourceTemplates(this, options);
  }

  /** Reads one resource (`resources/read`); contents that break the schema are left out with a reason. */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return resources.readResource(this, uri, options);
  }

  /** Every prompt (`prompts/list`), paginated and checked like `listResources`. */
  listPrompts(options?: ListOptions): Promise<PromptList> {
    return resources.listPrompts(this, options);
  }

  /** Gets one prompt's messages (`prompts/get`) with string arguments; malformed messages left out with a reason. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return resources.getPrompt(this, name, args, options);
  }

  /**
   * Every skill the server offers (`skills/list` of the `io.modelcontextprotocol/skills` extension), following
   * pagination to the end; malformed entries left out with a reason; the 2026 cache hints. See docs/skills.md.
   */
  listSkills(options?: ListOptions): Promise<SkillList> {
    return skills.listSkills(this, options);
  }

  /**
   * Writes one skill's files to `options.dir` (absent or empty), each read with `resources/read` and
   * verified against the manifest's size and SHA-256 before it is written; any mismatch, unlisted file,
   * unsafe path or bound passed is an error and leaves nothing in `dir`. `skill`: an entry `listSkills`
   * returned (read as listed), the `SKILL.md` URI (`skills/get`) or the skill's name. See docs/skills.md.
   */
  readSkill(skill: Skill | string, options: skills.ReadSkillOptions): Promise<ReadSkillResult> {
    return skills.readSkill(this, skill, options);
  }
}
