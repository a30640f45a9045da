/**
 * Extensions (SEP-2133): the contract an extension module implements, the turned-on set of a connection,
 * the server's offered extensions, and the modules this client has (`tasks/`). Read docs/extensions.md.
 */

export { MAX_EXTENSIONS } from '../protocol/extension-id.js';
export type { ClaimedResult, Extension, ExtensionPort } from './extension.js';
export { MAX_SERVER_EXTENSIONS, readServerExtensions } from './server-extensions.js';
export { SKILLS_EXTENSION } from './skills/extension.js';
export { TASKS_EXTENSION, type TaskUpdate } from './tasks/tasks.js';
export { NONE, TurnedOn, turnOn } from './turned-on.js';
