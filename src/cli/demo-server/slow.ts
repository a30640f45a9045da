/**
 * The demo tool `slow`: waits `steps` × `delayMs`, with a progress notification per step when the request
 * carried a `progressToken`; a cancelled call stops at once.
 */
import { type DemoTool, integerArg } from './tool.js';
import { object } from './wire.js';

export const slow: DemoTool = {
  definition: {
    name: 'slow',
    description: 'Waits `steps` × `delayMs`, sending a progress notification per step when asked to.',
    inputSchema: {
      type: 'object',
      properties: {
        steps: { type: 'integer', minimum: 1, maximum: 1000, default: 5, description: 'How many steps.' },
        delayMs: {
          type: 'integer',
          minimum: 0,
          maximum: 60000,
          default: 200,
          description: 'Milliseconds per step.',
        },
      },
    },
  },
  async call(args, { params, signal, notify }) {
    const steps = integerArg(args, 'steps', 5, 1, 1000);
    const delayMs = integerArg(args, 'delayMs', 200, 0, 60000);
    const token = object(params['_meta'])['progressToken'];
    for (let i = 1; i <= steps && !signal.aborted; i++) {
      await sleep(delayMs, signal);
      // Notifications only when the request carried a progressToken (S*/basic/utilities/progress).
      if (!signal.aborted && (typeof token === 'string' || typeof token === 'number'))
        notify({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: i, total: steps, message: `step ${i} of ${steps}` },
        });
    }
    return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
  },
};

/** Resolves after `ms`, or at once when `signal` aborts; no timer is left either way. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
