/**
 * The extensions turned on for one connection: checked ids, the module of each known one, what the
 * client declares, and which module claims a result. An id with no module here is declared as `{}` and
 * nothing more: a caller may opt into an extension this client does not model (the server then sees the
 * declaration; what it sends back is handled as core protocol). Spec: S26/basic/versioning (extensions).
 */
import { McpError } from '../errors/index.js';
import { extensionIdProblem, MAX_EXTENSIONS } from '../protocol/extension-id.js';
import type { Extension } from './extension.js';
import { SKILLS_EXTENSION, skillsExtension } from './skills/extension.js';
import { TASKS_EXTENSION, tasksExtension } from './tasks/tasks.js';

/** The modules this client has, by id. */
const MODULES: Readonly<Record<string, () => Extension>> = {
  [TASKS_EXTENSION]: tasksExtension,
  [SKILLS_EXTENSION]: skillsExtension,
};

/** The checked, turned-on extensions of one connection. Immutable. */
export class TurnedOn {
  readonly #modules: readonly Extension[];
  readonly #declared: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;

  constructor(modules: readonly Extension[]) {
    this.#modules = modules;
    this.#declared =
      modules.length === 0
        ? undefined
        : Object.freeze(Object.fromEntries(modules.map((module) => [module.id, module.settings])));
  }

  /** `capabilities.extensions` to declare; undefined when none is on (nothing is declared then). */
  get declared(): Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined {
    return this.#declared;
  }

  /** True when a turned-on module claims this `resultType` for `method`. */
  claims(method: string, resultType: unknown): boolean {
    return typeof resultType === 'string' && this.claimer(method, resultType) !== undefined;
  }

  /** The module that follows a `method` result of this `resultType`, if any. */
  claimer(method: string, resultType: unknown): Extension | undefined {
    if (typeof resultType !== 'string') return undefined;
    return this.#modules.find((module) => module.follow !== undefined && module.claims?.(method, resultType));
  }
}

/** No extension turned on. */
export const NONE = new TurnedOn([]);

/**
 * Checks `ids` (the `extensions` connect option, with the config's) and builds their modules. Throws `kind: 'config'` naming
 * the first bad id (the `_meta` key rules with a prefix), before anything is started. Repeats count once.
 */
export function turnOn(ids: unknown): TurnedOn {
  if (ids === undefined) return NONE;
  if (!Array.isArray(ids)) throw new McpError('config', 'extensions must be an array of extension ids');
  const unique = [...new Set<unknown>(ids)];
  if (unique.length > MAX_EXTENSIONS)
    throw new McpError('config', `extensions: at most ${MAX_EXTENSIONS} (got ${unique.length})`);
  const modules: Extension[] = [];
  for (const id of unique) {
    const problem = extensionIdProblem(id);
    if (problem !== undefined) {
      const shown = typeof id === 'string' ? JSON.stringify(id.slice(0, 80)) : typeof id;
      throw new McpError('config', `extensions: ${shown} ${problem}`);
    }
    const make = MODULES[id as string];
    modules.push(make === undefined ? { id: id as string, settings: Object.freeze({}) } : make());
  }
  return new TurnedOn(modules);
}
