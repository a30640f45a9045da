/**
 * The skills extension as a module of the extensions contract: turning it on declares
 * `capabilities.extensions["io.modelcontextprotocol/skills"] = {}`. It follows no result (skills are read with
 * `skills/list`, `skills/get` and `resources/read`); `Client.listSkills` and `Client.readSkill` work with or
 * without it, for servers that answer them undeclared. Spec: SEP-2640.
 */
import type { Extension } from '../extension.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

export function skillsExtension(): Extension {
  return { id: SKILLS_EXTENSION, settings: Object.freeze({}) };
}
