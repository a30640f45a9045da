/**
 * The tasks extension module (`io.modelcontextprotocol/tasks`, the 2026 shape of SEP-2663): declared as `{}`
 * (no settings are defined), it claims a `tools/call` result with `resultType: "task"` — the only method
 * that may create a task — and follows it to the final `CallToolResult` (`follow.ts`).
 */
import type { Extension } from '../extension.js';

export type { TaskUpdate } from './follow.js';

/** The extension identifier. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Methods a task may answer ("Supported Methods"); a task for any other is an invalid response. */
const TASK_METHODS: ReadonlySet<string> = new Set(['tools/call']);

/** A new tasks module. */
export function tasksExtension(): Extension {
  return {
    id: TASKS_EXTENSION,
    settings: Object.freeze({}),
    claims: (method, resultType) => resultType === 'task' && TASK_METHODS.has(method),
    // The follower is loaded when a server first answers with a task, not with the client.
    follow: (claimed, port) => import('./follow.js').then(({ followTask }) => followTask(claimed, port)),
  };
}
